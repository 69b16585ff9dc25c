import { Client } from 'pg';
import { decodeSecretKey } from '../src/config/config';
import { escapeLikePattern } from '../src/database/like-pattern';
import { ListEmployeesQuery } from '../src/employees/dto/list-employees.query';
import { ServiceKeys } from '../src/encryption/service-keys';
import { KeyValue, ListCursors, ListOrder } from '../src/pagination/cursor';
import { BenchKeys, EMPLOYEES_PER_ORGANISATION } from './bench-env';

/** A target of a request: an id and the Authorization header of its organisation. */
export interface Target {
  id: string;
  authorization: string;
}

/** What the scenarios rotate over, drawn at random from the seeded data once per run. */
export interface Sample {
  employees: Target[];
  positions: Target[];
  /** One Authorization per organisation, for lists. */
  organisations: string[];
  /**
   * The organisation with the webhook endpoints: its key, employees and skills, for POST rating; and
   * VERSIONED_EMPLOYEES other employees of it with their versions, which only the Base-Version scenario writes.
   */
  rated: { authorization: string; employeeIds: string[]; skillIds: string[]; versioned: VersionedEmployee[] };
  /** Event ids across organisations, as the `after` of GET /events. */
  events: Target[];
  /** Deliveries to the seeded endpoints (of the rated organisation), for POST …/redeliver. */
  deliveries: Array<{ endpointId: string; deliveryId: string }>;
  /** Per organisation, an `updatedSince` that leaves its last DELTA_SYNC_ROWS changes: a delta sync to page through. */
  updatedSince: Array<{ authorization: string; since: string }>;
  /** Issue 21, a cursor pass over the rated organisation's 100,000 employees: its first cursor-mode page. */
  firstCursorPages: CursorPage[];
  /** Its pages DEEP_PAGES_FROM..DEEP_PAGES_TO: the last 300 pages of the seeded employees. */
  deepCursorPages: CursorPage[];
  /** Per organisation and SEARCH_TERMS term with more than a page of matches: its first cursor-mode page. */
  searchCursorPages: CursorPage[];
}

/**
 * A cursor-mode page of an organisation's employees list (searched, or not). Page 1 itself is read by page (and
 * counted): a client's first cursor-mode page is the one after it, at the meta.nextCursor of page 1.
 */
export interface CursorPage {
  authorization: string;
  search?: string;
  cursor: string;
}

export const DELTA_SYNC_ROWS = 2_000;

const SAMPLE_SIZE = 20_000;
/** Few enough that each is written many times in a run, many enough that no two writes of one overlap. */
const VERSIONED_EMPLOYEES = 200;

export interface VersionedEmployee {
  id: string;
  version: number;
}

/**
 * Search terms of page 1 match 0.1 % to 7 % of an organisation's 100,000 employees (counts from the seed: mar 6,843,
 * son 4,838, anna 3,363, schm 2,898, tho 2,403, müller 716, lee 656, p0042 100, …); those of page 500 (offset 9,980)
 * match 28 % (er.) and 100 % (example: every e-mail), so the deep page is full.
 */
export const SEARCH_TERMS = [
  'mar',
  'son',
  'schm',
  'müller',
  'anna',
  'tho',
  'ber',
  'ina',
  'p0042',
  'lee',
  'wag',
  'kel',
  'nguyen',
  'ell',
];

/** The page size of the employee lists measured. */
export const EMPLOYEES_PAGE_SIZE = 20;
/** The last 300 pages of the seeded employees (100,000: page 5,000 reads rows 99,981 to 100,000). */
const DEEP_PAGES_TO = Math.floor(EMPLOYEES_PER_ORGANISATION / EMPLOYEES_PAGE_SIZE);
const DEEP_PAGES_FROM = DEEP_PAGES_TO - 299;

export async function sampleTargets(databaseUrl: string, keys: BenchKeys): Promise<Sample> {
  const authorizationOf = new Map(
    keys.organisations.map((organisation) => [organisation.id, `Bearer ${organisation.apiKey}`]),
  );
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const targets = async (table: string, percent: number): Promise<Target[]> => {
      const { rows } = await client.query<{ id: string; organisation_id: string }>(
        `SELECT id, organisation_id FROM ${table} TABLESAMPLE BERNOULLI (${percent}) LIMIT ${SAMPLE_SIZE}`,
      );
      return shuffle(rows.map((row) => ({ id: row.id, authorization: authorizationOf.get(row.organisation_id)! })));
    };
    const rated = keys.organisations[0];
    // The same employees in every run, and in no other scenario's sample: their versions are known.
    const versioned = await client.query<VersionedEmployee>(
      `SELECT id, version FROM employees WHERE organisation_id = $1 AND left_at IS NULL
        ORDER BY id LIMIT ${VERSIONED_EMPLOYEES}`,
      [rated.id],
    );
    const employeeIds = await client.query<{ id: string }>(
      `SELECT id FROM employees TABLESAMPLE BERNOULLI (10)
        WHERE organisation_id = $1 AND id <> ALL($2::uuid[]) LIMIT ${SAMPLE_SIZE}`,
      [rated.id, versioned.rows.map((row) => row.id)],
    );
    const skillIds = await client.query<{ id: string }>(`SELECT id FROM skills WHERE organisation_id = $1`, [rated.id]);
    const deliveries = await client.query<{ endpoint_id: string; id: string }>(
      `SELECT endpoint_id, id FROM webhook_deliveries TABLESAMPLE BERNOULLI (10)
        WHERE organisation_id = $1 AND outcome IS NOT NULL LIMIT ${SAMPLE_SIZE}`,
      [rated.id],
    );
    const cursors = new ListCursors(new ServiceKeys({ serviceSecretKey: decodeSecretKey(keys.webhookSecretKey) }));
    return {
      ...(await employeeCursorPages(client, cursors, rated.id, `Bearer ${rated.apiKey}`)),
      searchCursorPages: await searchCursorPages(client, cursors, keys),
      updatedSince: await deltaSyncs(client, keys),
      employees: (await targets('employees', 3)).filter((target) => target.authorization),
      positions: (await targets('positions', 100)).filter((target) => target.authorization),
      organisations: [...authorizationOf.values()],
      events: (await targets('events', 5)).filter((target) => target.authorization),
      deliveries: shuffle(deliveries.rows.map((row) => ({ endpointId: row.endpoint_id, deliveryId: row.id }))),
      rated: {
        authorization: `Bearer ${rated.apiKey}`,
        employeeIds: shuffle(employeeIds.rows.map((row) => row.id)),
        skillIds: shuffle(skillIds.rows.map((row) => row.id)),
        versioned: versioned.rows,
      },
    };
  } finally {
    await client.end();
  }
}

/**
 * Per organisation, where a sync of its last DELTA_SYNC_ROWS changes starts. The runner draws it again before
 * each scenario: the writes of earlier scenarios would otherwise lengthen the sync (and its exact count).
 */
export async function sampleDeltaSyncs(databaseUrl: string, keys: BenchKeys): Promise<Sample['updatedSince']> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await deltaSyncs(client, keys);
  } finally {
    await client.end();
  }
}

async function deltaSyncs(client: Client, keys: BenchKeys): Promise<Sample['updatedSince']> {
  // One after another: one client runs one query at a time (pg deprecates queueing them).
  const starts: Sample['updatedSince'] = [];
  for (const organisation of keys.organisations) {
    const { rows } = await client.query<{ since: Date }>(
      `SELECT updated_at AS since FROM employees WHERE organisation_id = $1
        ORDER BY updated_at DESC, id DESC OFFSET ${DELTA_SYNC_ROWS - 1} LIMIT 1`,
      [organisation.id],
    );
    starts.push({ authorization: `Bearer ${organisation.apiKey}`, since: rows[0]?.since.toISOString() ?? '' });
  }
  return starts.filter((start) => start.since);
}

/**
 * The cursor the service writes in meta.nextCursor after the row with order key `key` on the employees list of
 * `organisationId` with `filters`: signed by the service's own ListCursors, with the key the runner gives it.
 */
function cursorAfter(
  cursors: ListCursors,
  organisationId: string,
  filters: Partial<ListEmployeesQuery>,
  key: KeyValue[],
): string {
  const query = Object.assign(new ListEmployeesQuery(), filters, { limit: 1 });
  const order: ListOrder<KeyValue[]> = { columns: [], descending: false, keyOf: (row) => row };
  // A page of one row with another after it: its meta.nextCursor continues after `key`.
  const { meta } = cursors.page(
    { name: 'employees', organisationId },
    query,
    { rows: [key, key], order, total: null },
    (row) => row,
  );
  if (!('nextCursor' in meta) || meta.nextCursor === null) throw new Error('The employees list wrote no cursor');
  return meta.nextCursor;
}

/** The cursor pages of an organisation's employee list (oldest first): the first, and the deep ones. */
async function employeeCursorPages(
  client: Client,
  cursors: ListCursors,
  organisationId: string,
  authorization: string,
): Promise<Pick<Sample, 'firstCursorPages' | 'deepCursorPages'>> {
  // Page p's cursor is the order key of the last row of page p − 1.
  const lastRowOf = (page: number) => (page - 1) * EMPLOYEES_PAGE_SIZE - 1;
  const { rows } = await client.query<{ created_at: Date; id: string; row: number }>(
    `SELECT created_at, id, row FROM (
       SELECT created_at, id, (row_number() OVER (ORDER BY created_at, id) - 1)::int AS row
         FROM employees WHERE organisation_id = $1) ordered
      WHERE row = $2 OR (row BETWEEN $3 AND $4 AND (row - $3) % $5 = 0)
      ORDER BY row`,
    [organisationId, lastRowOf(2), lastRowOf(DEEP_PAGES_FROM), lastRowOf(DEEP_PAGES_TO), EMPLOYEES_PAGE_SIZE],
  );
  const pageAfter = (row: (typeof rows)[number]) => ({
    authorization,
    cursor: cursorAfter(cursors, organisationId, {}, [row.created_at, row.id]),
  });
  const [first, ...deep] = rows;
  if (deep.length !== DEEP_PAGES_TO - DEEP_PAGES_FROM + 1) {
    throw new Error(`The rated organisation has fewer than ${DEEP_PAGES_TO} pages of employees: is it seeded?`);
  }
  return { firstCursorPages: [pageAfter(first)], deepCursorPages: shuffle(deep.map(pageAfter)) };
}

/** Per organisation and search term, the cursor after the last row of the search's page 1, when a row follows. */
async function searchCursorPages(client: Client, cursors: ListCursors, keys: BenchKeys): Promise<CursorPage[]> {
  const found: CursorPage[] = [];
  for (const organisation of keys.organisations) {
    for (const search of SEARCH_TERMS) {
      // As the service's search reads it: employee_search, oldest first, then the page's employees rows.
      const { rows } = await client.query<{ created_at: Date; id: string }>(
        `SELECT e.created_at, e.id
           FROM (SELECT employee_id FROM employee_search
                  WHERE organisation_id = $1 AND search_text LIKE '%' || lower($2) || '%'
                  ORDER BY created_at, employee_id LIMIT $3) page
           JOIN employees e ON e.id = page.employee_id
          ORDER BY e.created_at, e.id`,
        [organisation.id, escapeLikePattern(search), EMPLOYEES_PAGE_SIZE + 1],
      );
      if (rows.length <= EMPLOYEES_PAGE_SIZE) continue;
      const last = rows[EMPLOYEES_PAGE_SIZE - 1];
      found.push({
        authorization: `Bearer ${organisation.apiKey}`,
        search,
        cursor: cursorAfter(cursors, organisation.id, { search }, [last.created_at, last.id]),
      });
    }
  }
  return shuffle(found);
}

function shuffle<T>(items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [items[index], items[other]] = [items[other], items[index]];
  }
  return items;
}
