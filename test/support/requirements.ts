/**
 * Tests that need a server the machine may not have. The global setup notes what it could reach; a
 * test that needs what is absent is skipped, with the reason printed and in its name. CI has both,
 * so there every test runs.
 */
export const REQUIREMENTS_ENV = {
  postgres: 'TEST_HAS_POSTGRES',
  redis: 'TEST_HAS_REDIS',
  pgbouncer: 'TEST_HAS_PGBOUNCER',
} as const;

type Requirement = keyof typeof REQUIREMENTS_ENV;

const MISSING: Record<Requirement, string> = {
  postgres:
    'needs a PostgreSQL server (TEST_DATABASE_URL, or one at 127.0.0.1:5432); the run uses the embedded database',
  redis: 'needs Redis (REDIS_URL, or one at 127.0.0.1:6379)',
  pgbouncer: 'needs pgbouncer (the Debian package; .ci/run installs it) and a PostgreSQL server',
};

export function has(requirement: Requirement): boolean {
  return process.env[REQUIREMENTS_ENV[requirement]] === 'true';
}

/** The name to register the test under, or null after printing why it is skipped. */
function gate(requirement: Requirement, name: string): string | null {
  if (has(requirement)) return name;
  process.stderr.write(`skipped "${name}": ${MISSING[requirement]}\n`);
  return null;
}

function describeIf(requirement: Requirement) {
  return (name: string, body: () => void): void => {
    const gated = gate(requirement, name);
    if (gated) describe(gated, body);
    else describe.skip(`${name} (skipped: ${MISSING[requirement]})`, body);
  };
}

function itIf(requirement: Requirement) {
  return (name: string, body: () => Promise<unknown>, timeout?: number): void => {
    const gated = gate(requirement, name);
    if (gated) it(gated, body, timeout);
    else it.skip(`${name} (skipped: ${MISSING[requirement]})`, body);
  };
}

export const describeIfPostgres = describeIf('postgres');
export const describeIfRedis = describeIf('redis');
export const describeIfPgBouncer = describeIf('pgbouncer');
export const itIfPostgres = itIf('postgres');
export const itIfRedis = itIf('redis');
