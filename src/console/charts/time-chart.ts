import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { axisTicks, CHART_WIDTH, chartSvg, coordinate, dataTable } from './chart-parts';

/** A kind of point, told apart by its mark's shape and colour, and named in the legend and the table. */
export interface TimeSeries {
  key: string;
  label: string;
}

export interface TimePoint {
  at: Date;
  value: number;
  /** The key of its series. */
  series: string;
}

export interface TimeChart {
  /** Unique on the page: the prefix of the chart's element ids. */
  id: string;
  /** The chart's name: its drawing's title and its table's caption. */
  title: string;
  points: readonly TimePoint[];
  /** The value axis. */
  min: number;
  max: number;
  /** Every series a point may name, in the legend's order; each gets a shape of its own. */
  series: readonly TimeSeries[];
  /** The text alternative's column headers. */
  headers: { at: string; value: string; series: string };
}

const HEIGHT = 184;
/** The plot inside the drawing: room on the left for the value axis, below for the dates. */
const PLOT = { left: 30, right: CHART_WIDTH - 10, top: 10, bottom: HEIGHT - 30 };
const DATE_BASELINE = HEIGHT - 10;
const MARK_SIZE = 6;

/** The shapes of the series, in order: a circle, a square, a triangle, a diamond. */
const SHAPES = ['circle', 'square', 'triangle', 'diamond'] as const;
type Shape = (typeof SHAPES)[number];

/** A mark of `shape` centred on (x, y), `size` from its centre to its edge. */
function mark(shape: Shape, x: number, y: number, size: number, className: string): Html {
  const c = coordinate;
  switch (shape) {
    case 'circle':
      return html`<circle class="${className}" cx="${c(x)}" cy="${c(y)}" r="${size}" />`;
    case 'square':
      return html`<rect
        class="${className}"
        x="${c(x - size * 0.9)}"
        y="${c(y - size * 0.9)}"
        width="${c(size * 1.8)}"
        height="${c(size * 1.8)}"
      />`;
    case 'triangle':
      return html`<path
        class="${className}"
        d="M${c(x)} ${c(y - size * 1.15)}L${c(x + size * 1.1)} ${c(y + size * 0.85)}L${c(x - size * 1.1)} ${c(y + size * 0.85)}Z"
      />`;
    case 'diamond':
      return html`<path
        class="${className}"
        d="M${c(x)} ${c(y - size * 1.2)}L${c(x + size * 1.2)} ${c(y)}L${c(x)} ${c(y + size * 1.2)}L${c(x - size * 1.2)} ${c(y)}Z"
      />`;
  }
}

function seriesIndex(chart: TimeChart, key: string): number {
  return Math.max(
    0,
    chart.series.findIndex((series) => series.key === key),
  );
}

function day(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The value axis: a line and a label at each tick. */
function valueAxis(y: (value: number) => number, chart: TimeChart): Html {
  return html`<g class="chart-axis">
    ${axisTicks(chart.min, chart.max).map(
      (tick) =>
        html`<line class="chart-grid" x1="${PLOT.left}" x2="${PLOT.right}" y1="${y(tick)}" y2="${y(tick)}" />
          <text x="${PLOT.left - 8}" y="${coordinate(y(tick) + 4)}" text-anchor="end">${tick}</text>`,
    )}
  </g>`;
}

/** The time axis: the first and last day at its ends (one day, once, in the middle). */
function timeAxis(first: Date, last: Date): Html {
  const middle = (PLOT.left + PLOT.right) / 2;
  return html`<g class="chart-axis">
    ${
      day(first) === day(last)
        ? html`<text x="${middle}" y="${DATE_BASELINE}" text-anchor="middle">${day(first)}</text>`
        : html`<text x="${PLOT.left}" y="${DATE_BASELINE}">${day(first)}</text>
            <text x="${PLOT.right}" y="${DATE_BASELINE}" text-anchor="end">${day(last)}</text>`
    }
  </g>`;
}

/** The legend under the drawing, in HTML so it wraps on a narrow screen: each series present, with its mark. */
function legend(chart: TimeChart, present: ReadonlySet<string>): Html {
  const items = chart.series
    .map((series, index) => ({ series, index }))
    .filter(({ series }) => present.has(series.key))
    .map(
      ({ series, index }) =>
        html`<li>
          <svg class="chart-swatch" viewBox="0 0 14 14" width="14" height="14" aria-hidden="true">
            ${mark(SHAPES[index % SHAPES.length], 7, 7, 5, `chart-mark chart-series-${index}`)}
          </svg>
          ${series.label}
        </li>`,
    );
  return html`<ul class="chart-legend">
    ${items}
  </ul>`;
}

/**
 * A chart of values over time drawn on the server: one mark per point, placed by its time and value, shaped and
 * coloured by its series (named in a legend), joined in time order by a thin line; the value axis marked at its
 * ticks, the first and last day written under it. Then the same points as a table, oldest first (the text
 * alternative). Used for an employee's ratings of one skill.
 */
export function timeChart(chart: TimeChart): Html {
  const points = [...chart.points].sort((a, b) => a.at.getTime() - b.at.getTime());
  if (points.length === 0) return html``;
  const first = points[0].at;
  const last = points[points.length - 1].at;
  const span = last.getTime() - first.getTime();
  const x = (at: Date) =>
    span === 0
      ? (PLOT.left + PLOT.right) / 2
      : PLOT.left + ((at.getTime() - first.getTime()) / span) * (PLOT.right - PLOT.left);
  const range = chart.max - chart.min;
  const y = (value: number) =>
    coordinate(
      range <= 0
        ? (PLOT.top + PLOT.bottom) / 2
        : PLOT.bottom - ((value - chart.min) / range) * (PLOT.bottom - PLOT.top),
    );
  const line = points.map((point) => `${coordinate(x(point.at))},${y(point.value)}`).join(' ');
  const marks = points.map((point) => {
    const index = seriesIndex(chart, point.series);
    return mark(
      SHAPES[index % SHAPES.length],
      x(point.at),
      y(point.value),
      MARK_SIZE,
      `chart-mark chart-series-${index}`,
    );
  });
  const labelOf = new Map(chart.series.map((series) => [series.key, series.label]));
  return html`<div class="chart" id="${chart.id}">
    ${chartSvg(
      chart.id,
      chart.title,
      HEIGHT,
      html`${valueAxis(y, chart)} ${timeAxis(first, last)}
      ${points.length > 1 ? html`<polyline class="chart-line" points="${line}" />` : ''} ${marks}`,
    )}
    ${legend(chart, new Set(points.map((point) => point.series)))}
    ${dataTable(
      chart.title,
      [
        { header: chart.headers.at, cell: (point: TimePoint) => formatTime(point.at) },
        { header: chart.headers.value, cell: (point: TimePoint) => point.value },
        { header: chart.headers.series, cell: (point: TimePoint) => labelOf.get(point.series) ?? point.series },
      ],
      points,
    )}
  </div>`;
}
