import { Html, html } from '../http/html';

/**
 * The width of every chart's drawing, in SVG units. About the content width of a 360 px screen, so the SVG is
 * drawn near 1:1 there and text of CHART_FONT units never shrinks below ~13 px; the stylesheet caps how wide a
 * chart grows on a large screen, so its text never grows much past that either.
 */
export const CHART_WIDTH = 320;

/** The font size of chart text in SVG units (the stylesheet sets the same for `.chart text`). */
export const CHART_FONT = 14;

/** An average character's advance at CHART_FONT, to cut a label before it runs into what stands beside it. */
const CHARACTER_WIDTH = CHART_FONT * 0.56;

/** A coordinate to one decimal: enough on any screen, and markup that stays short. */
export function coordinate(value: number): number {
  return Math.round(value * 10) / 10;
}

/** How many characters fit into `width` SVG units. */
export function charactersIn(width: number): number {
  return Math.max(1, Math.floor(width / CHARACTER_WIDTH));
}

/** About how wide `text` is drawn, in SVG units. */
export function textWidth(text: string): number {
  return [...text].length * CHARACTER_WIDTH;
}

/** The text, cut to `characters` with an ellipsis when longer (the text alternative keeps it whole). */
export function fitText(text: string, characters: number): string {
  const codePoints = [...text];
  return codePoints.length <= characters ? text : `${codePoints.slice(0, Math.max(1, characters - 1)).join('')}…`;
}

/**
 * The values marked on an axis from `min` to `max`: every whole number when there are at most eleven, else
 * multiples of 1, 2 or 5 × 10ⁿ, about five of them.
 */
export function axisTicks(min: number, max: number): number[] {
  if (max <= min) return [min];
  const range = max - min;
  const step = range <= 10 ? 1 : niceStep(range / 5);
  const ticks: number[] = [];
  for (let tick = Math.ceil(min / step) * step; tick <= max; tick += step) ticks.push(tick);
  return ticks;
}

function niceStep(rough: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].find((multiple) => multiple * magnitude >= rough) ?? 10;
  return step * magnitude;
}

/**
 * The SVG element of a chart: scaled by its viewBox to the width the stylesheet gives it, named by its title for
 * assistive technology (role img), with the numbers in the table that follows it.
 */
export function chartSvg(id: string, title: string, height: number, content: Html): Html {
  return html`<svg
    class="chart-drawing"
    viewBox="0 0 ${CHART_WIDTH} ${height}"
    width="${CHART_WIDTH}"
    height="${height}"
    role="img"
    aria-labelledby="${id}-title"
  >
    <title id="${id}-title">${title}</title>
    ${content}
  </svg>`;
}

/** A column of a chart's text alternative: its header, and each row's cell. */
export interface DataColumn<Row> {
  header: string;
  cell: (row: Row) => Html | string | number;
}

/**
 * A chart's text alternative: the same numbers as a table, captioned with the chart's title, visually hidden
 * (the drawing shows them) but read by screen readers and found by its name. The first column heads each row.
 */
export function dataTable<Row>(title: string, columns: readonly DataColumn<Row>[], rows: readonly Row[]): Html {
  const [first, ...rest] = columns;
  // Hidden by a box around it: a table is never narrower than its cells, so hidden itself it would still widen
  // the page (and scroll it sideways at 360 px).
  return html`<div class="visually-hidden">
    <table>
      <caption>
        ${title}
      </caption>
      <thead>
        <tr>
          ${columns.map(({ header }) => html`<th scope="col">${header}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (row) =>
            html`<tr>
              <th scope="row">${first.cell(row)}</th>
              ${rest.map(({ cell }) => html`<td>${cell(row)}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
