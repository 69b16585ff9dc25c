import { Client } from 'pg';

/** Runs `work` with a client of the database at `url`. */
export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A function of the database as a rewrite would show it: a CREATE OR REPLACE gives its row a new xmin. */
export interface StoredFunction {
  name: string;
  arguments: string;
  oid: string;
  xmin: string;
}

/** Every function of the public schema, in name order. */
export function functionsOf(url: string): Promise<StoredFunction[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<StoredFunction>(
      `SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS arguments, p.oid::text AS oid,
              p.xmin::text AS xmin
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public'
        ORDER BY p.proname, 2`,
    );
    return rows;
  });
}
