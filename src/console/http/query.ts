import type { Page, PageFields } from '../../pagination/pagination';

/** A page number from the query string; anything else is the first page. */
export function pageNumber(value: unknown): number {
  return typeof value === 'string' && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : 1;
}

/** A GET form's text field: its value, trimmed; absent or sent twice, empty. */
export function queryText(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** The page-mode meta of a list read by page number (the console never reads by cursor). */
export function pageFieldsOf<T>(page: Page<T>): PageFields {
  return page.meta as PageFields;
}
