import { html, Html, HtmlValue } from '../http/html';

export interface TableOptions {
  /** The id of the heading that names the table. */
  labelledBy?: string;
  /** Rows stacked as cards on a narrow screen (the stylesheet's `stack`); true unless said. */
  stack?: boolean;
  /** Cells aligned to the top (rows of uneven height). */
  alignTop?: boolean;
  /** Shown instead of an empty table. */
  empty?: HtmlValue;
}

/**
 * The console's one table: a heading per column (`scope="col"`), a row per item, scrolled sideways inside its
 * own box when too wide (`table-wrap`), so the page itself never is.
 */
export function table<T>(
  columns: readonly HtmlValue[],
  items: readonly T[],
  row: (item: T) => HtmlValue,
  options: TableOptions = {},
): Html {
  if (items.length === 0) return html`${options.empty ?? ''}`;
  const classes = [options.stack === false ? '' : 'stack', options.alignTop ? 'align-top' : ''].filter(Boolean);
  return html`<div class="table-wrap">
    <table
      ${classes.length === 0 ? '' : html`class="${classes.join(' ')}"`}
      ${options.labelledBy === undefined ? '' : html`aria-labelledby="${options.labelledBy}"`}
    >
      <thead>
        <tr>
          ${columns.map((column) => html`<th scope="col">${column}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${items.map(row)}
      </tbody>
    </table>
  </div>`;
}

/** One link of a pager: its text ("Previous", "Older") and where it goes, or null when there is nothing there. */
export interface PagerLink {
  label: string;
  href: string | null;
}

/** The console's one pager: the links that lead somewhere, in a navigation landmark named "Pages". */
export function pager(...links: PagerLink[]): Html {
  return html`<nav class="pager" aria-label="Pages">
    ${links.map(({ label, href }) => (href === null ? '' : html`<a href="${href}">${label}</a>`))}
  </nav>`;
}

/** The console's one toolbar: the page's main action, as a button that opens its form (`action`, a console path). */
export function toolbar(action: string, label: string): Html {
  return html`<form method="get" action="${action}" class="toolbar">
    <button type="submit" class="primary">${label}</button>
  </form>`;
}

/**
 * A filter form's search box (`search`, as the API's lists take it), its hint given by `hintId`: the page writes
 * the hint below the form.
 */
export function searchField(id: string, value: string, hintId: string): Html {
  return html`<div class="grow">
    <label for="${id}">Search</label>
    <input id="${id}" name="search" type="search" maxlength="200" value="${value}" aria-describedby="${hintId}" />
  </div>`;
}

/**
 * The filters above a list: a GET form of labelled controls (`fields`) and its button, named `name` for a screen
 * reader; a search landmark when it searches.
 */
export function filterForm(
  action: string,
  fields: HtmlValue,
  button: string,
  landmark: { name?: string; search?: boolean } = {},
): Html {
  const named = landmark.name === undefined ? '' : html`aria-label="${landmark.name}"`;
  return html`<form
    method="get"
    action="${action}"
    class="filter"
    ${landmark.search ? html`role="search"` : ''}
    ${named}
  >
    ${fields}
    <button type="submit">${button}</button>
  </form>`;
}
