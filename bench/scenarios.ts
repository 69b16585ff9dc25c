import {
  type CursorPage,
  DELTA_SYNC_ROWS,
  EMPLOYEES_PAGE_SIZE,
  type Sample,
  SEARCH_TERMS,
  type Target,
  type VersionedEmployee,
} from './sample';

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  /**
   * bench/baseline-server.ts serves it too, and so does bench/framework-floor.ts (that handler behind a bare NestJS
   * app): the table shows the service's req/s as a ratio to each.
   */
  baseline?: boolean;
  /** bench/stack-floor.ts serves it too (issue 51): the table shows the service's req/s as a ratio to it. */
  stack?: boolean;
  /** Its writes emit skill.rated to the seeded endpoints: the receiver measures the deliveries. */
  webhooks?: boolean;
  /** It writes: the runner samples what the target's connections wait on (lock waits) while it runs. */
  writes?: boolean;
  /** A source of requests rotating over many rows, so no single hot row is measured. */
  requests(sample: Sample): () => BenchRequest;
}

const API = '/api/v1';

const BROAD_SEARCH_TERMS = ['er.', 'example'];
const RATING_TYPES = ['MANAGER_EVALUATION', 'SELF_ASSESMENT', 'LLM_RATING'];

function rotate<T>(items: T[]): () => T {
  if (items.length === 0) throw new Error('Nothing to rotate over: is the database seeded?');
  let index = 0;
  return () => items[index++ % items.length];
}

function get(path: string, authorization: string): BenchRequest {
  return { method: 'GET', path: `${API}${path}`, headers: { authorization } };
}

const byTarget = (path: (target: Target) => string, pick: (sample: Sample) => Target[]) => (sample: Sample) => {
  const next = rotate(pick(sample));
  return () => {
    const target = next();
    return get(path(target), target.authorization);
  };
};

const employeesList = (page: number, terms?: string[]) => (sample: Sample) => {
  const organisation = rotate(sample.organisations);
  const term = terms && rotate(terms);
  return () => {
    const search = term ? `&search=${encodeURIComponent(term())}` : '';
    return get(`/employees?page=${page}&limit=${EMPLOYEES_PAGE_SIZE}${search}`, organisation());
  };
};

/** Ratings of the rated organisation's employees, across its skills; with `keyed`, each with a fresh Idempotency-Key. */
const newRatings =
  ({ keyed = false }) =>
  (sample: Sample) => {
    const employee = rotate(sample.rated.employeeIds);
    const skill = rotate(sample.rated.skillIds);
    const key = uniqueValues('r');
    let count = 0;
    return (): BenchRequest => {
      const headers: Record<string, string> = {
        authorization: sample.rated.authorization,
        'content-type': 'application/json',
      };
      if (keyed) headers['idempotency-key'] = key();
      return {
        method: 'POST',
        path: `${API}/employees/${employee()}/ratings`,
        headers,
        body: JSON.stringify({ skillId: skill(), score: count++ % 6, ratingType: RATING_TYPES[count % 3] }),
      };
    };
  };

/** A cursor-mode page of the employees list: each request one of `pick`'s cursors, in turn. */
const employeesCursorPage = (pick: (sample: Sample) => CursorPage[]) => (sample: Sample) => {
  const page = rotate(pick(sample));
  return () => {
    const { authorization, search, cursor } = page();
    const filter = search === undefined ? '' : `search=${encodeURIComponent(search)}&`;
    return get(`/employees?${filter}cursor=${encodeURIComponent(cursor)}&limit=${EMPLOYEES_PAGE_SIZE}`, authorization);
  };
};

/** A unique value per request of one scenario's run, so no write is a no-op and no key is reused. */
/**
 * Writes so far per employee of the Base-Version scenario, across its runs in this process (every build and round
 * writes the one database): its first write names the version it read (nothing to merge), each later one the
 * version before the previous write, which changed the other field.
 */
const mergedWrites = new Map<string, number>();
const MERGED_FIELDS = ['title', 'departmentId'] as const;

function nextMergedWrite({ id, version }: VersionedEmployee): { baseVersion: number; field: string } {
  const writes = mergedWrites.get(id) ?? 0;
  mergedWrites.set(id, writes + 1);
  return { baseVersion: version + Math.max(writes - 1, 0), field: MERGED_FIELDS[writes % 2] };
}

function uniqueValues(prefix: string): () => string {
  const run = `${prefix}${Date.now().toString(36)}`;
  let count = 0;
  return () => `${run}-${count++}`;
}

/**
 * New employees, each unique, of the rated organisation, or of every organisation in turn with `everyOrganisation`
 * (one organisation's writes share its employee counter row; ten organisations' do not); with `keyed`, each with a
 * fresh Idempotency-Key.
 */
const newEmployees =
  ({ keyed = false, everyOrganisation = false }) =>
  (sample: Sample) => {
    const newId = uniqueValues(keyed ? 'k' : 'p');
    const organisation = rotate(everyOrganisation ? sample.organisations : [sample.rated.authorization]);
    return (): BenchRequest => {
      const id = newId();
      const headers: Record<string, string> = {
        authorization: organisation(),
        'content-type': 'application/json',
      };
      if (keyed) headers['idempotency-key'] = id;
      return {
        method: 'POST',
        path: `${API}/employees`,
        headers,
        body: JSON.stringify({
          personnelNumber: id,
          firstName: 'Bench',
          lastName: id,
          businessEmail: `${id}@bench.example`,
        }),
      };
    };
  };

/** Issue 51's hot scenarios: its targets are the service's instructions per request on these. */
export const HOT_SCENARIOS = [
  'GET employee by id',
  'POST employee',
  'POST rating (+2 outbox rows)',
  'PATCH employee',
  'POST employee, Idempotency-Key',
  'GET employees search, page 1',
];

export const SCENARIOS: Scenario[] = [
  {
    name: 'GET employee by id',
    baseline: true,
    stack: true,
    // GET /employees/{id} answers the EmployeeDetail: the employee with its skills and their latest ratings.
    requests: byTarget(
      (target) => `/employees/${target.id}`,
      (sample) => sample.employees,
    ),
  },
  {
    name: 'GET employee skills',
    requests: byTarget(
      (target) => `/employees/${target.id}/skills`,
      (sample) => sample.employees,
    ),
  },
  {
    name: 'GET employee ratings',
    requests: byTarget(
      (target) => `/employees/${target.id}/ratings`,
      (sample) => sample.employees,
    ),
  },
  { name: 'GET employees, page 1', requests: employeesList(1) },
  { name: 'GET employees, page 500', requests: employeesList(500) },
  { name: 'GET employees search, page 1', baseline: true, stack: true, requests: employeesList(1, SEARCH_TERMS) },
  {
    // Issue 21: the cursor after each search's page 1, as a client continues it; nothing is counted.
    name: 'GET employees search, cursor page 1',
    requests: employeesCursorPage((sample) => sample.searchCursorPages),
  },
  {
    name: 'GET employees search, page 500',
    baseline: true,
    stack: true,
    requests: employeesList(500, BROAD_SEARCH_TERMS),
  },
  {
    // Issue 21: a cursor pass over the rated organisation's 100,000 employees, at its start and at its end.
    name: 'GET employees cursor, page 1',
    requests: employeesCursorPage((sample) => sample.firstCursorPages),
  },
  {
    name: 'GET employees cursor, page 5,000',
    requests: employeesCursorPage((sample) => sample.deepCursorPages),
  },
  {
    name: 'GET employees updatedSince, pages 1-100',
    // A delta sync: the last 2,000 changes of an organisation, 20 at a time, oldest change first.
    requests: (sample) => {
      const organisation = rotate(sample.updatedSince);
      const pages = DELTA_SYNC_ROWS / 20;
      let page = 0;
      return () => {
        const { authorization, since } = organisation();
        return get(`/employees?updatedSince=${since}&page=${(page++ % pages) + 1}&limit=20`, authorization);
      };
    },
  },
  {
    name: 'GET skills, pages 1-15',
    requests: (sample) => {
      const organisation = rotate(sample.organisations);
      let page = 0;
      return () => get(`/skills?page=${(page++ % 15) + 1}&limit=20`, organisation());
    },
  },
  {
    name: 'GET position detail',
    requests: byTarget(
      (target) => `/positions/${target.id}`,
      (sample) => sample.positions,
    ),
  },
  {
    name: 'GET position candidates, page 1',
    baseline: true,
    // Issue 24: the 100,000 employees of the organisation with 10 rated skills each, ranked for one of its positions.
    requests: byTarget(
      (target) => `/positions/${target.id}/candidates?limit=20`,
      (sample) => sample.positions.filter((target) => target.authorization === sample.rated.authorization),
    ),
  },
  {
    name: 'GET skill employees minScore=3, page 1',
    // Issue 24: ~3,300 holders per skill in that organisation, about half of them with a latest score ≥ 3.
    requests: (sample) => {
      const skill = rotate(sample.rated.skillIds);
      return () => get(`/skills/${skill()}/employees?minScore=3&limit=20`, sample.rated.authorization);
    },
  },
  {
    name: 'GET /events page',
    // A reader catching up: 20 events after a cursor somewhere in its organisation's 20,000.
    requests: byTarget(
      (target) => `/events?after=${target.id}&limit=20`,
      (sample) => sample.events,
    ),
  },
  {
    name: 'POST rating (+2 outbox rows)',
    baseline: true,
    stack: true,
    webhooks: true,
    writes: true,
    requests: newRatings({}),
  },
  // Issue 21: a keyed write claims its key in the rating's transaction and keeps the answer.
  { name: 'POST rating, Idempotency-Key', webhooks: true, writes: true, requests: newRatings({ keyed: true }) },
  {
    // Issue 21: each PATCH changes the title, so it writes, diffs (`changes`) and records employee.updated.
    name: 'PATCH employee',
    baseline: true,
    stack: true,
    writes: true,
    requests: (sample) => {
      const employee = rotate(sample.rated.employeeIds);
      const title = uniqueValues('t');
      return () => ({
        method: 'PATCH',
        path: `${API}/employees/${employee()}`,
        headers: { authorization: sample.rated.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Bench ${title()}` }),
      });
    },
  },
  {
    // Issue 47, the merge path: each PATCH names, as its Base-Version, the version before the employee's last
    // change, which altered the other of two fields, so the service reads that change, finds no overlap and writes.
    name: 'PATCH employee, Base-Version',
    writes: true,
    requests: (sample) => {
      const employee = rotate(sample.rated.versioned);
      const value = uniqueValues('b');
      return () => {
        const target = employee();
        const { baseVersion, field } = nextMergedWrite(target);
        return {
          method: 'PATCH',
          path: `${API}/employees/${target.id}`,
          headers: {
            authorization: sample.rated.authorization,
            'content-type': 'application/json',
            'base-version': String(baseVersion),
          },
          body: JSON.stringify({ [field]: `Bench ${value()}` }),
        };
      };
    },
  },
  // The employee, its employee.created event row (no endpoint subscribes to it) and the organisation's counter row.
  { name: 'POST employee', baseline: true, stack: true, writes: true, requests: newEmployees({}) },
  {
    name: 'POST employee, ten organisations',
    baseline: true,
    stack: true,
    writes: true,
    requests: newEmployees({ everyOrganisation: true }),
  },
  {
    name: 'POST employee, Idempotency-Key',
    baseline: true,
    stack: true,
    writes: true,
    requests: newEmployees({ keyed: true }),
  },
  {
    // Last: the deliveries it queues are sent while it runs and after, and the drain waits for them.
    name: 'redeliver',
    writes: true,
    requests: (sample) => {
      const delivery = rotate(sample.deliveries);
      return () => {
        const { endpointId, deliveryId } = delivery();
        return {
          method: 'POST',
          path: `${API}/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`,
          headers: { authorization: sample.rated.authorization, 'content-type': 'application/json' },
          body: '{}',
        };
      };
    },
  },
];
