import { Client } from 'pg';
import { BenchKeys } from './bench-env';

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
  /** The organisation with the webhook endpoints: its key, employees and skills, for POST rating. */
  rated: { authorization: string; employeeIds: string[]; skillIds: string[] };
  /** Event ids across organisations, as the `after` of GET /events. */
  events: Target[];
  /** Deliveries to the seeded endpoints (of the rated organisation), for POST …/redeliver. */
  deliveries: Array<{ endpointId: string; deliveryId: string }>;
  /** Per organisation, an `updatedSince` that leaves its last DELTA_SYNC_ROWS changes: a delta sync to page through. */
  updatedSince: Array<{ authorization: string; since: string }>;
}

export const DELTA_SYNC_ROWS = 2_000;

const SAMPLE_SIZE = 20_000;

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
    const employeeIds = await client.query<{ id: string }>(
      `SELECT id FROM employees TABLESAMPLE BERNOULLI (10) WHERE organisation_id = $1 LIMIT ${SAMPLE_SIZE}`,
      [rated.id],
    );
    const skillIds = await client.query<{ id: string }>(`SELECT id FROM skills WHERE organisation_id = $1`, [rated.id]);
    const deliveries = await client.query<{ endpoint_id: string; id: string }>(
      `SELECT endpoint_id, id FROM webhook_deliveries TABLESAMPLE BERNOULLI (10)
        WHERE organisation_id = $1 AND outcome IS NOT NULL LIMIT ${SAMPLE_SIZE}`,
      [rated.id],
    );
    return {
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
  const starts = await Promise.all(
    keys.organisations.map(async (organisation) => {
      const { rows } = await client.query<{ since: Date }>(
        `SELECT updated_at AS since FROM employees WHERE organisation_id = $1
          ORDER BY updated_at DESC, id DESC OFFSET ${DELTA_SYNC_ROWS - 1} LIMIT 1`,
        [organisation.id],
      );
      return { authorization: `Bearer ${organisation.apiKey}`, since: rows[0]?.since.toISOString() ?? '' };
    }),
  );
  return starts.filter((start) => start.since);
}

function shuffle<T>(items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [items[index], items[other]] = [items[other], items[index]];
  }
  return items;
}
