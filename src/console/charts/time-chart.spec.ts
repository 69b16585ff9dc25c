import { TimeChart, timeChart } from './time-chart';

const chart: TimeChart = {
  id: 'history-1',
  title: 'Rating history of SQL',
  points: [
    { at: new Date('2026-03-01T10:00:00Z'), value: 4, series: 'MANAGER' },
    { at: new Date('2026-01-01T09:30:00Z'), value: 2, series: 'SELF' },
    { at: new Date('2026-02-01T12:15:00Z'), value: 3, series: 'LLM' },
  ],
  min: 0,
  max: 5,
  series: [
    { key: 'MANAGER', label: 'Manager evaluation' },
    { key: 'SELF', label: 'Self-assessment' },
    { key: 'LLM', label: 'LLM rating' },
    { key: 'OTHER', label: 'Never used' },
  ],
  headers: { at: 'Date', value: 'Score', series: 'Type' },
};

/** The marks drawn in the plot (the legend's swatches aside), as [tag, class, centre x, centre y]. */
function marks(markup: string): Array<[string, string, number, number]> {
  const drawing = /<svg\s+class="chart-drawing"[\s\S]*?<\/svg>/.exec(markup)![0];
  return [...drawing.matchAll(/<(circle|rect|path)\s+class="(chart-mark [^"]*)"([^>]*)\/>/g)].map(
    ([, tag, className, attributes]) => {
      const value = (name: string) => Number(new RegExp(`${name}="([-\\d.]+)"`).exec(attributes)?.[1]);
      if (tag === 'circle') return [tag, className, value('cx'), value('cy')];
      if (tag === 'rect') return [tag, className, value('x') + value('width') / 2, value('y') + value('height') / 2];
      const [x, y] = /d="M([-\d.]+) ([-\d.]+)/.exec(attributes)!.slice(1).map(Number);
      return [tag, className, x, y];
    },
  );
}

function tableRows(markup: string): string[][] {
  const body = /<tbody>([\s\S]*)<\/tbody>/.exec(markup)![1];
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) => cell.replace(/<[^>]+>/g, '').trim()),
  );
}

describe('timeChart', () => {
  it('draws one mark per point, in time order, shaped and coloured by its series', () => {
    const drawn = marks(timeChart(chart).text);
    expect(drawn.map(([tag, className]) => [tag, className])).toEqual([
      ['rect', 'chart-mark chart-series-1'],
      ['path', 'chart-mark chart-series-2'],
      ['circle', 'chart-mark chart-series-0'],
    ]);
    const xs = drawn.map(([, , x]) => x);
    expect(xs[0]).toBeLessThan(xs[1]);
    expect(xs[1]).toBeLessThan(xs[2]);
  });

  it('places a higher score higher, on a value axis marked at each whole score of the scale', () => {
    const markup = timeChart(chart).text;
    const [self, llm, manager] = marks(markup).map(([, , , y]) => y);
    expect(self).toBeGreaterThan(llm);
    expect(llm).toBeGreaterThan(manager);
    const ticks = [...markup.matchAll(/<text x="22" y="[\d.]+" text-anchor="end">(\d+)<\/text>/g)].map(
      ([, tick]) => tick,
    );
    expect(ticks).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(markup).toContain('>2026-01-01</text>');
    expect(markup).toContain('>2026-03-01</text>');
  });

  it('states every point in a table, oldest first, with its date, value and series', () => {
    const markup = timeChart(chart).text;
    expect(markup).toMatch(/<caption>\s*Rating history of SQL\s*<\/caption>/);
    expect(markup).toContain('<title id="history-1-title">Rating history of SQL</title>');
    expect(tableRows(markup)).toEqual([
      ['2026-01-01 09:30 UTC', '2', 'Self-assessment'],
      ['2026-02-01 12:15 UTC', '3', 'LLM rating'],
      ['2026-03-01 10:00 UTC', '4', 'Manager evaluation'],
    ]);
  });

  it('names in its legend only the series it shows', () => {
    const legend = /<ul class="chart-legend">([\s\S]*?)<\/ul>/.exec(timeChart(chart).text)![1];
    expect(legend).toContain('Manager evaluation');
    expect(legend).toContain('LLM rating');
    expect(legend).not.toContain('Never used');
  });

  it('centres a single point, draws no line for it, and writes its day once', () => {
    const markup = timeChart({ ...chart, points: [chart.points[0]] }).text;
    const [[, , x]] = marks(markup);
    expect(x).toBe((30 + 310) / 2);
    expect(markup).not.toContain('<polyline');
    expect(markup.match(/>2026-03-01</g)).toHaveLength(1);
  });

  it('draws nothing without points, and never an inline style or script', () => {
    expect(timeChart({ ...chart, points: [] }).text).toBe('');
    expect(timeChart(chart).text).not.toMatch(/style=|<style|<script|\son\w+=/);
  });
});
