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
}

const SAMPLE_SIZE = 20_000;

export async function sampleTargets(databaseUrl: string, keys: BenchKeys): Promise<Sample> {
  const authorizationOf = new Map(keys.organisations.map((organisation) => [organisation.id, `Bearer ${organisation.apiKey}`]));
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
    return {
      employees: (await targets('employees', 3)).filter((target) => target.authorization),
      positions: (await targets('positions', 100)).filter((target) => target.authorization),
      organisations: [...authorizationOf.values()],
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

function shuffle<T>(items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [items[index], items[other]] = [items[other], items[index]];
  }
  return items;
}
