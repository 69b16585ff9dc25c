import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ServiceKeys } from '../encryption/service-keys';
import { ValidationError } from '../errors/errors';
import { ListMeta, Page, PaginationQuery, buildPaginationMeta } from './pagination';

/** One value of a row's order key: a column of the list's ORDER BY (null for a nullable one). */
export type KeyValue = string | number | Date | null;

/** A list's order, as its repository reads it: SQL columns (all one direction) and the row's value of each. */
export interface ListOrder<Row> {
  /** SQL expressions, most significant first, e.g. `['f.created_at', 'f.id']`. */
  columns: string[];
  descending: boolean;
  keyOf(row: Row): KeyValue[];
}

/** The ORDER BY list of an order, e.g. `r.created_at DESC, r.id DESC`. */
export function orderByColumns(order: ListOrder<unknown>): string {
  return order.columns.map((column) => `${column}${order.descending ? ' DESC' : ''}`).join(', ');
}

/** What one list request reads: rows after a cursor's key (cursor mode) or at an offset (page mode). */
export interface PageWindow {
  /** The order key of the last row already seen; null in page mode and on a cursor pass's first page. */
  after: KeyValue[] | null;
  offset: number;
  /** One more row than the page holds, to tell whether a row follows it. */
  fetch: number;
  /** Page mode counts the rows; cursor mode never does. */
  counted: boolean;
}

/** The rows a repository read through a window, the order they are in, and their total in page mode. */
export interface ListRows<Row> {
  rows: Row[];
  order: ListOrder<Row>;
  total: number | null;
}

/** Which list a cursor belongs to: its name, the organisation, and the ids in its path (an employee, an endpoint). */
export interface ListIdentity {
  name: string;
  organisationId: string;
  pathIds?: string[];
}

const CURSOR_ERROR = 'cursor is malformed, altered, or was issued for another list or other filters';
// Query parameters a cursor is not bound to: the page size may change from page to page.
const UNBOUND_PARAMETERS = new Set(['cursor', 'limit', 'page']);
const MAC_BYTES = 32;

/**
 * Cursor paging for every list. A cursor is the base64url JSON of the last row's order key, followed by an
 * HMAC over it and the list it was issued for (name, organisation, path ids, every filter). The HMAC key is
 * derived from the service secret, so every instance accepts the cursors of the others, and a cursor altered,
 * forged, or replayed on another list, organisation or filter set is a 400 rather than a foreign or wrong row.
 * During a rotation of the secret, cursors signed under the previous one are accepted until its grace ends.
 */
@Injectable()
export class ListCursors {
  constructor(private readonly keys: ServiceKeys) {}

  /** The window a list request reads; a cursor with `page`, or one this list and filters did not issue, is 400. */
  window(list: ListIdentity, query: PaginationQuery): PageWindow {
    const fetch = query.limit + 1;
    if (query.cursor === undefined) return { after: null, offset: query.offset, fetch, counted: true };
    if (query.page !== undefined) throw ValidationError.forField('cursor', 'cursor and page cannot be combined');
    return { after: this.decode(list, query, query.cursor), offset: 0, fetch, counted: false };
  }

  /** The page of rows read through `window`: `meta.nextCursor` continues after its last row, if any follows. */
  page<Row, Item>(
    list: ListIdentity,
    query: PaginationQuery,
    read: ListRows<Row>,
    map: (row: Row) => Item,
  ): Page<Item> {
    const rows = read.rows.slice(0, query.limit);
    const last = rows.at(-1);
    const hasNextPage = read.rows.length > query.limit && last !== undefined;
    const nextCursor = hasNextPage ? this.encode(list, query, read.order.keyOf(last)) : null;
    let meta: ListMeta;
    if (query.cursor !== undefined) {
      meta = { limit: query.limit, hasNextPage, nextCursor };
    } else {
      meta = { ...buildPaginationMeta(read.total ?? 0, query.page ?? 1, query.limit), nextCursor };
    }
    return new Page(rows.map(map), meta);
  }

  private encode(list: ListIdentity, query: PaginationQuery, key: KeyValue[]): string {
    const payload = Buffer.from(JSON.stringify(key.map(encodeValue))).toString('base64url');
    const mac = this.mac(this.keys.current('list-cursors'), list, query, payload);
    return `${payload}.${mac.toString('base64url')}`;
  }

  private decode(list: ListIdentity, query: PaginationQuery, cursor: string): KeyValue[] {
    const [payload, mac, ...rest] = cursor.split('.');
    const given = Buffer.from(mac ?? '', 'base64url');
    const signedHere = (key: Buffer) => timingSafeEqual(given, this.mac(key, list, query, payload));
    if (rest.length > 0 || given.length !== MAC_BYTES || !this.keys.accepted('list-cursors').some(signedHere)) {
      throw ValidationError.forField('cursor', CURSOR_ERROR);
    }
    const key = decodeKey(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!key) throw ValidationError.forField('cursor', CURSOR_ERROR);
    return key;
  }

  private mac(key: Buffer, list: ListIdentity, query: PaginationQuery, payload: string): Buffer {
    const binding = JSON.stringify([list.name, list.organisationId, list.pathIds ?? [], boundFilters(query)]);
    return createHmac('sha256', key).update(binding).update('\n').update(payload).digest();
  }
}

/** Every query parameter the request set other than cursor, limit and page, in name order. */
function boundFilters(query: PaginationQuery): [string, unknown][] {
  return Object.entries(query)
    .filter(([name, value]) => !UNBOUND_PARAMETERS.has(name) && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

type EncodedValue = string | number | null | { date: string };

function encodeValue(value: KeyValue): EncodedValue {
  return value instanceof Date ? { date: value.toISOString() } : value;
}

/** The order key in a cursor's payload; undefined when it is not one this module wrote. */
function decodeKey(json: string): KeyValue[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  const key: KeyValue[] = [];
  for (const value of parsed as unknown[]) {
    if (typeof value === 'string' || typeof value === 'number' || value === null) key.push(value);
    else if (isEncodedDate(value)) key.push(new Date(value.date));
    else return undefined;
  }
  return key;
}

function isEncodedDate(value: unknown): value is { date: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { date?: unknown }).date === 'string' &&
    !Number.isNaN(Date.parse((value as { date: string }).date))
  );
}
