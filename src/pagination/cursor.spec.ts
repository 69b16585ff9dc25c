import { ServiceKeys } from '../encryption/service-keys';
import { ValidationError } from '../errors/errors';
import { ListCursors, ListIdentity, ListOrder, ListRows, orderByColumns } from './cursor';
import { PaginationQuery } from './pagination';

interface Row {
  id: string;
  createdAt: Date;
}

const ORDER: ListOrder<Row> = {
  columns: ['t.created_at', 't.id'],
  descending: false,
  keyOf: (row) => [row.createdAt, row.id],
};
const LIST: ListIdentity = { name: 'things', organisationId: 'org-1' };

function cursors(key = 7): ListCursors {
  return new ListCursors(new ServiceKeys({ serviceSecretKey: Buffer.alloc(32, key) }));
}

class FilteredQuery extends PaginationQuery {
  colour?: string;
}

function query(fields: Partial<FilteredQuery> = {}): FilteredQuery {
  return Object.assign(new FilteredQuery(), fields);
}

function rows(count: number): ListRows<Row> {
  const all = Array.from({ length: count }, (_, index) => ({
    id: `id-${index}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index, 123)),
  }));
  return { rows: all, order: ORDER, total: 42 };
}

/** The cursor a page of two (of three rows read) ends with. */
function issued(on = cursors(), list = LIST, fields: Partial<FilteredQuery> = {}): string {
  const page = on.page(list, query({ limit: 2, ...fields }), rows(3), (row) => row);
  return (page.meta as { nextCursor: string }).nextCursor;
}

function validationField(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof ValidationError) return error.details?.[0]?.field ?? 'none';
    throw error;
  }
  return undefined;
}

describe('ListCursors', () => {
  it('reads page mode without a keyset, counted, one row more than the page', () => {
    expect(cursors().window(LIST, query({ page: 3, limit: 10 }))).toEqual({
      after: null,
      offset: 20,
      fetch: 11,
      counted: true,
    });
  });

  it('gives the page meta plus the cursor of the page’s last row when a row follows it', () => {
    const page = cursors().page(LIST, query({ page: 1, limit: 2 }), rows(3), (row) => row.id);
    expect(page.items).toEqual(['id-0', 'id-1']);
    expect(page.meta).toEqual({
      total: 42,
      page: 1,
      limit: 2,
      totalPages: 21,
      hasNextPage: true,
      hasPrevPage: false,
      nextCursor: expect.any(String),
    });
  });

  it('gives a null nextCursor when no row follows the page', () => {
    const page = cursors().page(LIST, query({ limit: 3 }), rows(3), (row) => row);
    expect((page.meta as { nextCursor: unknown }).nextCursor).toBeNull();
  });

  it('turns a cursor back into the order key of the row it was issued after, with exact dates', () => {
    const cursor = issued();
    const window = cursors().window(LIST, query({ cursor, limit: 5 }));
    expect(window).toEqual({
      after: [new Date(Date.UTC(2026, 0, 1, 0, 0, 1, 123)), 'id-1'],
      offset: 0,
      fetch: 6,
      counted: false,
    });
  });

  it('gives cursor-mode meta without counting: limit, hasNextPage, nextCursor', () => {
    const page = cursors().page(LIST, query({ cursor: issued(), limit: 2 }), rows(2), (row) => row);
    expect(page.meta).toEqual({ limit: 2, hasNextPage: false, nextCursor: null });
  });

  it('accepts a cursor issued by another instance with the same secret key', () => {
    expect(validationField(() => cursors(7).window(LIST, query({ cursor: issued(cursors(7)) })))).toBeUndefined();
  });

  it.each([
    ['with page', () => cursors().window(LIST, query({ cursor: issued(), page: 1 }))],
    ['signed with another key', () => cursors().window(LIST, query({ cursor: issued(cursors(8)) }))],
    ['of another list', () => cursors().window({ ...LIST, name: 'others' }, query({ cursor: issued() }))],
    [
      'of another organisation',
      () => cursors().window({ ...LIST, organisationId: 'org-2' }, query({ cursor: issued() })),
    ],
    [
      'of another parent',
      () =>
        cursors().window(
          { ...LIST, pathIds: ['p2'] },
          query({ cursor: issued(cursors(), { ...LIST, pathIds: ['p1'] }) }),
        ),
    ],
    [
      'with other filters',
      () => cursors().window(LIST, query({ cursor: issued(cursors(), LIST, { colour: 'red' }), colour: 'blue' })),
    ],
    ['with a filter added', () => cursors().window(LIST, query({ cursor: issued(), colour: 'blue' }))],
    [
      'altered in its key',
      () =>
        cursors().window(
          LIST,
          query({ cursor: `${Buffer.from('["x"]').toString('base64url')}.${issued().split('.')[1]}` }),
        ),
    ],
    ['altered in its signature', () => cursors().window(LIST, query({ cursor: `${issued().slice(0, -2)}AA` }))],
    ['malformed', () => cursors().window(LIST, query({ cursor: 'not a cursor' }))],
    ['empty', () => cursors().window(LIST, query({ cursor: '' }))],
    ['with an extra part', () => cursors().window(LIST, query({ cursor: `${issued()}.x` }))],
  ])('refuses a cursor %s with a VALIDATION_ERROR naming cursor', (_, read) => {
    expect(validationField(read)).toBe('cursor');
  });

  it('does not bind a cursor to limit, so the page size may change', () => {
    expect(validationField(() => cursors().window(LIST, query({ cursor: issued(), limit: 50 })))).toBeUndefined();
  });

  it('writes an ORDER BY in the order’s direction', () => {
    expect(orderByColumns(ORDER)).toBe('t.created_at, t.id');
    expect(orderByColumns({ ...ORDER, descending: true })).toBe('t.created_at DESC, t.id DESC');
  });
});
