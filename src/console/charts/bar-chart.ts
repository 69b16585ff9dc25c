import { Html, html } from '../http/html';
import {
  CHART_WIDTH,
  charactersIn,
  chartSvg,
  coordinate,
  dataTable,
  DataColumn,
  fitText,
  textWidth,
} from './chart-parts';

/** One bar: a labelled value from 0, and optionally a target drawn across it (a required minimum). */
export interface Bar {
  label: string;
  /** The bar's length; null when there is none (an empty track, said as the chart's `noValue`). */
  value: number | null;
  target?: number;
  /** Whether the value reaches the target, as the caller's rule decides; colours the bar (the text says it too). */
  tone?: 'met' | 'short';
}

export interface BarChart {
  /** Unique on the page: the prefix of the chart's element ids. */
  id: string;
  /** The chart's name: its drawing's title and its table's caption. */
  title: string;
  bars: readonly Bar[];
  /** The end of the value axis (it starts at 0). */
  max: number;
  /** The text alternative's column headers: the label's, the value's, the target's. */
  headers: { label: string; value: string; target?: string };
  /** How a missing value reads ("not rated"). */
  noValue: string;
  /** The word before a target in the drawing's text ("min" → "3 · min 4"); the table's header says it whole. */
  targetWord?: string;
}

/** One bar's band: its label and value text above, the bar below. */
const ROW_HEIGHT = 44;
const LABEL_BASELINE = 15;
const BAR_TOP = 22;
const BAR_HEIGHT = 14;
/** The target's line overhangs the bar by this much above and below. */
const TARGET_OVERHANG = 3;
/** Room kept between a label and the value text beside it. */
const GAP = 12;

function valueText(bar: Bar, chart: BarChart): string {
  const value = bar.value === null ? chart.noValue : String(bar.value);
  return bar.target === undefined ? value : `${value} · ${chart.targetWord ?? 'target'} ${bar.target}`;
}

/** A value's place on the axis from 0 to `max`, in SVG units; outside the axis it stops at its ends. */
function position(value: number, max: number): number {
  return max <= 0 ? 0 : coordinate((Math.min(Math.max(value, 0), max) / max) * CHART_WIDTH);
}

function barRow(bar: Bar, index: number, chart: BarChart): Html {
  const top = index * ROW_HEIGHT;
  const text = valueText(bar, chart);
  const labelRoom = CHART_WIDTH - textWidth(text) - GAP;
  const tone = bar.tone === undefined ? '' : ` chart-bar-${bar.tone}`;
  return html`<g class="chart-row">
    <text class="chart-label" x="0" y="${top + LABEL_BASELINE}">${fitText(bar.label, charactersIn(labelRoom))}</text>
    <text class="chart-value" x="${CHART_WIDTH}" y="${top + LABEL_BASELINE}" text-anchor="end">${text}</text>
    <rect class="chart-track" x="0" y="${top + BAR_TOP}" width="${CHART_WIDTH}" height="${BAR_HEIGHT}" rx="3" />
    ${
      bar.value === null || bar.value <= 0
        ? ''
        : html`<rect
            class="chart-bar${tone}"
            x="0"
            y="${top + BAR_TOP}"
            width="${position(bar.value, chart.max)}"
            height="${BAR_HEIGHT}"
            rx="3"
          />`
    }
    ${
      bar.target === undefined
        ? ''
        : html`<line
            class="chart-target"
            x1="${position(bar.target, chart.max)}"
            x2="${position(bar.target, chart.max)}"
            y1="${top + BAR_TOP - TARGET_OVERHANG}"
            y2="${top + BAR_TOP + BAR_HEIGHT + TARGET_OVERHANG}"
          />`
    }
  </g>`;
}

/**
 * A horizontal bar chart drawn on the server: a band per bar with its label and value written above it, the bar
 * from 0 on a track to `max`, and a target's line across it; then the same numbers as a table (the text
 * alternative). Used for a candidate's score against each required skill's minimum, and for how many people have
 * each score of a skill.
 */
export function barChart(chart: BarChart): Html {
  const hasTarget = chart.bars.some((bar) => bar.target !== undefined);
  const columns: DataColumn<Bar>[] = [
    { header: chart.headers.label, cell: (bar) => bar.label },
    { header: chart.headers.value, cell: (bar) => (bar.value === null ? chart.noValue : bar.value) },
  ];
  if (hasTarget) {
    columns.push({ header: chart.headers.target ?? 'Target', cell: (bar) => bar.target ?? '' });
  }
  const height = Math.max(1, chart.bars.length) * ROW_HEIGHT;
  return html`<div class="chart" id="${chart.id}">
    ${chartSvg(chart.id, chart.title, height, html`${chart.bars.map((bar, index) => barRow(bar, index, chart))}`)}
    ${dataTable(chart.title, columns, chart.bars)}
  </div>`;
}
