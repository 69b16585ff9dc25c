/** Set in the workers' environment: the run's migrated database, which each worker's copy is made from. */
export const BASE_DATABASE_ENV = 'TEST_BASE_DATABASE_URL';
/** Set when the run goes through PgBouncer (TEST_PGBOUNCER=true): the same database, reached directly. */
export const BASE_DIRECT_DATABASE_ENV = 'TEST_BASE_DIRECT_DATABASE_URL';

/**
 * The database of one Jest worker: a copy of the run's, so that files running at the same moment never share
 * one. They must not: every dispatcher (in-process or a spawned server) claims the deliveries of every
 * organisation in its database, and would send another file's to a receiver it cannot reach.
 */
export function workerDatabaseUrl(baseUrl: string, workerId: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname}_w${workerId}`;
  return url.toString();
}

/** Set on the embedded database: the URL of each worker's own (embedded-test-databases.ts), in worker order. */
export const EMBEDDED_DATABASES_ENV = 'TEST_EMBEDDED_DATABASE_URLS';

/** Points this worker at its own copy of the run's database, or at its own embedded database. */
export function useWorkerDatabase(): void {
  const base = process.env[BASE_DATABASE_ENV];
  const worker = process.env.JEST_WORKER_ID ?? '1';
  if (base) process.env.TEST_DATABASE_URL = workerDatabaseUrl(base, worker);
  const embedded = process.env[EMBEDDED_DATABASES_ENV]?.split(' ');
  if (embedded) {
    const url = embedded[Number(worker) - 1];
    if (!url) throw new Error(`Jest worker ${worker} has no embedded database: the run made ${embedded.length}`);
    process.env.TEST_DATABASE_URL = url;
  }
  const direct = process.env[BASE_DIRECT_DATABASE_ENV];
  if (direct) process.env.TEST_DATABASE_DIRECT_URL = workerDatabaseUrl(direct, worker);
}
