import { DELTA_SYNC_ROWS, type Sample, type Target } from './sample';

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  /** bench/baseline-server.ts serves it too: the table shows the service's req/s as a ratio to it. */
  baseline?: boolean;
  /** Its writes emit skill.rated to the seeded endpoints: the receiver measures the deliveries. */
  webhooks?: boolean;
  /** It writes: the runner samples what the target's connections wait on (lock waits) while it runs. */
  writes?: boolean;
  /** A source of requests rotating over many rows, so no single hot row is measured. */
  requests(sample: Sample): () => BenchRequest;
}

const API = '/api/v1';

/**
 * Search terms of page 1 match 0.1 % to 7 % of an organisation's 100,000 employees (counts from the seed: mar 6,843,
 * son 4,838, anna 3,363, schm 2,898, tho 2,403, müller 716, lee 656, p0042 100, …); those of page 500 (offset 9,980)
 * match 28 % (er.) and 100 % (example: every e-mail), so the deep page is full.
 */
const SEARCH_TERMS = [
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
    return get(`/employees?page=${page}&limit=20${search}`, organisation());
  };
};

/**
 * New employees, each unique, of the rated organisation, or of every organisation in turn with `everyOrganisation`
 * (one organisation's writes share its employee counter row; ten organisations' do not); with `keyed`, each with a
 * fresh Idempotency-Key.
 */
const newEmployees =
  ({ keyed = false, everyOrganisation = false }) =>
  (sample: Sample) => {
    const run = `${keyed ? 'k' : 'p'}${Date.now().toString(36)}`;
    const organisation = rotate(everyOrganisation ? sample.organisations : [sample.rated.authorization]);
    let count = 0;
    return (): BenchRequest => {
      const id = `${run}-${count++}`;
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

export const SCENARIOS: Scenario[] = [
  {
    name: 'GET employee by id',
    baseline: true,
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
  { name: 'GET employees search, page 1', baseline: true, requests: employeesList(1, SEARCH_TERMS) },
  { name: 'GET employees search, page 500', baseline: true, requests: employeesList(500, BROAD_SEARCH_TERMS) },
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
    webhooks: true,
    writes: true,
    requests: (sample) => {
      const employee = rotate(sample.rated.employeeIds);
      const skill = rotate(sample.rated.skillIds);
      let count = 0;
      return () => ({
        method: 'POST',
        path: `${API}/employees/${employee()}/ratings`,
        headers: { authorization: sample.rated.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ skillId: skill(), score: count++ % 6, ratingType: RATING_TYPES[count % 3] }),
      });
    },
  },
  // The employee, its employee.created event row (no endpoint subscribes to it) and the organisation's counter row.
  { name: 'POST employee', baseline: true, writes: true, requests: newEmployees({}) },
  {
    name: 'POST employee, ten organisations',
    baseline: true,
    writes: true,
    requests: newEmployees({ everyOrganisation: true }),
  },
  { name: 'POST employee, Idempotency-Key', baseline: true, writes: true, requests: newEmployees({ keyed: true }) },
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
