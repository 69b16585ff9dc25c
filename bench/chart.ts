/**
 * Draws a bench report as an SVG: one line per scenario and connection count, req/s on the left and p99 on the
 * right, the service beside the stack floor, the framework floor and the raw baseline, one bar per round (the second paler), on log scales (the scenarios span
 * 8 to 2,000 req/s and 40 ms to 8 s). `npm run bench` writes it beside the JSON; to draw a JSON again:
 *
 *   npm run bench:chart [bench/results/latest.json]     → bench/results/latest.svg
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report, Round, Row } from './report';

const LABEL_WIDTH = 330;
const PANEL_WIDTH = 380;
const PANEL_GAP = 60;
const BAR = 8;
const TOP = 70;
const COLOURS = { service: '#2b6cb0', stack: '#38a169', floor: '#d69e2e', baseline: '#9aa5b1' };
/** Within a line: the service, then the stack floor, the framework floor, the raw baseline. */
const ORDER: Row['target'][] = ['service', 'stack', 'floor', 'baseline'];

interface Panel {
  title: string;
  x: number;
  value: (round: Round) => number;
  max: number;
}

export function renderChart(report: Report): string {
  const lines = groupLines(report.rows);
  const all = report.rows.flatMap((row) => row.rounds);
  const panels: Panel[] = [
    { title: 'req/s (more is better, log scale)', x: LABEL_WIDTH, value: (round) => round.requestsPerSecond, max: 1 },
    {
      title: 'p99 ms (less is better, log scale)',
      x: LABEL_WIDTH + PANEL_WIDTH + PANEL_GAP,
      value: (round) => round.p99Ms,
      max: 1,
    },
  ];
  for (const panel of panels) panel.max = Math.max(10, ...all.map(panel.value));

  const parts: string[] = [];
  let y = TOP;
  for (const [label, rows] of lines) {
    const height = Math.max(22, rows.reduce((sum, row) => sum + row.rounds.length * (BAR + 1), 0) + 8);
    parts.push(`<text x="8" y="${y + height / 2 + 4}">${escape(label)}</text>`);
    for (const panel of panels) {
      let barY = y + 4;
      for (const row of rows) {
        row.rounds.forEach((round, index) => {
          const value = panel.value(round);
          const width = scale(value, panel.max);
          parts.push(
            `<rect x="${panel.x}" y="${barY}" width="${width.toFixed(1)}" height="${BAR}" fill="${COLOURS[row.target]}"` +
              `${index > 0 ? ' fill-opacity="0.55"' : ''}><title>${escape(`${row.target}, round ${index + 1}: ${value}`)}</title></rect>`,
            `<text x="${panel.x + width + 3}" y="${barY + BAR - 1}" class="value">${value}</text>`,
          );
          barY += BAR + 1;
        });
      }
    }
    parts.push(`<line x1="8" x2="${panels[1].x + PANEL_WIDTH}" y1="${y + height}" y2="${y + height}" class="rule"/>`);
    y += height;
  }

  const grid = panels.flatMap((panel) => [
    `<text x="${panel.x}" y="${TOP - 22}" class="head">${panel.title}</text>`,
    ...ticks(panel.max).map((tick) => {
      const x = panel.x + scale(tick, panel.max);
      return `<line x1="${x}" x2="${x}" y1="${TOP - 12}" y2="${y}" class="grid"/><text x="${x}" y="${TOP - 4}" class="tick">${tick}</text>`;
    }),
  ]);
  const settings = Object.entries(report.settings)
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.join(',') : String(value)}`)
    .join(' · ');
  const width = panels[1].x + PANEL_WIDTH + 50;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y + 30}" viewBox="0 0 ${width} ${y + 30}" font-family="sans-serif" font-size="11">`,
    '<style>.value,.tick{font-size:9px;fill:#333}.head{font-weight:bold}.grid{stroke:#ddd}.rule{stroke:#eee}</style>',
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="8" y="18" class="head">${escape(`Benchmark (${report.profile}) ${report.at}`)}</text>`,
    `<text x="8" y="34" class="tick">${escape(settings)}</text>`,
    legend(8, TOP - 4),
    ...grid,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}

/** Rows of one scenario at one connection count share a line, in ORDER. */
function groupLines(rows: Row[]): Map<string, Row[]> {
  const lines = new Map<string, Row[]>();
  for (const row of rows) {
    const label = `${row.scenario} · ${row.connections} conn.`;
    lines.set(label, [...(lines.get(label) ?? []), row]);
  }
  for (const group of lines.values()) group.sort((a, b) => ORDER.indexOf(a.target) - ORDER.indexOf(b.target));
  return lines;
}

/** Log scale from 1: 0 and 1 draw nothing. */
function scale(value: number, max: number): number {
  return value <= 1 ? 0 : (Math.log10(value) / Math.log10(max)) * PANEL_WIDTH;
}

function ticks(max: number): number[] {
  const ticks: number[] = [];
  for (let tick = 10; tick <= max; tick *= 10) ticks.push(tick);
  return ticks;
}

function legend(x: number, y: number): string {
  return [
    `<rect x="${x}" y="${y - 8}" width="10" height="${BAR}" fill="${COLOURS.service}"/><text x="${x + 14}" y="${y}">service</text>`,
    `<rect x="${x + 70}" y="${y - 8}" width="10" height="${BAR}" fill="${COLOURS.stack}"/><text x="${x + 84}" y="${y}">stack floor</text>`,
    `<rect x="${x + 170}" y="${y - 8}" width="10" height="${BAR}" fill="${COLOURS.floor}"/><text x="${x + 184}" y="${y}">floor</text>`,
    `<rect x="${x + 230}" y="${y - 8}" width="10" height="${BAR}" fill="${COLOURS.baseline}"/><text x="${x + 244}" y="${y}">raw baseline</text>`,
    `<text x="${x + 330}" y="${y}" class="tick">a bar per round, later ones paler</text>`,
  ].join('');
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Writes the SVG beside the JSON: x.json → x.svg. */
export function writeChart(jsonPath: string, report: Report): string {
  const svgPath = jsonPath.replace(/\.json$/, '') + '.svg';
  writeFileSync(svgPath, renderChart(report));
  return svgPath;
}

if (require.main === module) {
  const jsonPath = process.argv[2] ?? join(__dirname, 'results', 'latest.json');
  console.log(`Written to ${writeChart(jsonPath, JSON.parse(readFileSync(jsonPath, 'utf8')) as Report)}`);
}
