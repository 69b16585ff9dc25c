import { Client } from 'pg';

/** How many of a target's connections were in one state, on average over the samples: "Lock/transactionid". */
export interface WaitCount {
  wait: string;
  average: number;
}

const EVERY_MS = 250;

/**
 * Samples pg_stat_activity every 250 ms for the connections of one application (the runner sets PGAPPNAME per
 * process) while a write scenario runs, so lock waits show beside the throughput. A busy connection counts under
 * its wait event ("Lock/transactionid", "Client/ClientRead": idle in a transaction, waiting on the app), or as
 * "running" when it waits on nothing; idle connections are not counted.
 */
export async function sampleWaits(databaseUrl: string, applicationName: string): Promise<() => Promise<WaitCount[]>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const totals = new Map<string, number>();
  let samples = 0;
  let sampling = Promise.resolve();
  const sample = async () => {
    const { rows } = await client.query<{ wait: string; connections: number }>(
      `SELECT coalesce(wait_event_type || '/' || wait_event, 'running') AS wait, count(*)::int AS connections
         FROM pg_stat_activity
        WHERE application_name = $1 AND state <> 'idle' AND pid <> pg_backend_pid()
        GROUP BY 1`,
      [applicationName],
    );
    samples += 1;
    for (const row of rows) totals.set(row.wait, (totals.get(row.wait) ?? 0) + row.connections);
  };
  const timer = setInterval(() => {
    sampling = sampling.then(sample, sample);
  }, EVERY_MS);
  return async () => {
    clearInterval(timer);
    await sampling.catch(() => undefined);
    await client.end();
    return [...totals.entries()]
      .map(([wait, total]) => ({ wait, average: Math.round((total / Math.max(samples, 1)) * 10) / 10 }))
      .sort((a, b) => b.average - a.average);
  };
}

/** "Lock/transactionid 7.2, running 1.1": the busiest states, as the table shows them. */
export function formatWaits(waits: WaitCount[], count = 3): string {
  return waits
    .filter((entry) => entry.average >= 0.05)
    .slice(0, count)
    .map((entry) => `${entry.wait} ${entry.average.toFixed(1)}`)
    .join(', ');
}
