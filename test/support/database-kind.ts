/**
 * Whether the run is on the embedded database (PGlite), which global-setup starts when no PostgreSQL server is
 * reachable: its database is named "postgres", while a server's test database always has "test" in its name.
 */
export function onEmbeddedDatabase(): boolean {
  const url = process.env.TEST_DATABASE_URL;
  return url !== undefined && !decodeURIComponent(new URL(url).pathname).includes('test');
}

/**
 * `it`, or `it.skip` on the embedded database: PGlite is one session, so a test that keeps a transaction open
 * while another commits (or takes a lock "from another instance") would wait for itself.
 */
export const itWithConcurrentSessions: jest.It = onEmbeddedDatabase() ? it.skip : it;

/** The reason, for the test names of those that skip. */
export const NEEDS_A_SERVER = '(needs a PostgreSQL server: skipped on the one-session embedded database)';
