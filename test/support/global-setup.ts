import { connect } from 'node:net';
import type { Config } from 'jest';
import { Client } from 'pg';
import { migrate } from '../../src/database/migrate';
import { buildForTests } from './build';
import { startEmbeddedTestDatabases } from './embedded-test-databases';
import { PgBouncer, pgbouncerBinary, startPgBouncer } from './pgbouncer';
import { has, REQUIREMENTS_ENV } from './requirements';
import { shareTestCertificate } from './tls';
import {
  BASE_DATABASE_ENV,
  BASE_DIRECT_DATABASE_ENV,
  EMBEDDED_DATABASES_ENV,
  workerDatabaseUrl,
} from './worker-database';

interface RunState {
  embeddedTestDatabase?: { close(): Promise<void> };
  ownTestDatabase?: string;
  workerDatabases?: string[];
  pgbouncer?: PgBouncer;
}

/**
 * Picks the database for the whole run and migrates it once: TEST_DATABASE_URL, else a database of
 * this run's own on a local PostgreSQL (dropped afterwards, so parallel runs never meet), else the
 * embedded database in a temporary directory. A server's database is dropped and made anew first,
 * and only when its name says "test"; each worker then gets a copy of its own (worker-database.ts),
 * and on the embedded database an embedded database of its own (embedded-test-databases.ts).
 * Also builds the server once for the tests that run it as a process, and notes which servers
 * (PostgreSQL, Redis) the run can reach.
 */
export default async function globalSetup(globalConfig: Config): Promise<void> {
  process.env.LOG_LEVEL ??= 'silent';
  const run = globalThis as RunState;
  let url = process.env.TEST_DATABASE_URL;
  if (!url && (await isListening('127.0.0.1', 5432))) {
    url = `postgres://postgres@127.0.0.1:5432/skills_test_${process.pid}`;
    run.ownTestDatabase = url;
  }
  if (url) {
    await recreateDatabase(url);
    await migrate(url);
    process.env[REQUIREMENTS_ENV.postgres] = 'true';
  } else {
    // PGlite is one session: each app gets one connection, and a worker's clients take turns through its pooler.
    const embedded = await startEmbeddedTestDatabases(Number(globalConfig.maxWorkers ?? 1));
    run.embeddedTestDatabase = embedded;
    url = embedded.urls[0];
    process.env[EMBEDDED_DATABASES_ENV] = embedded.urls.join(' ');
    process.env.TEST_DATABASE_POOL_SIZE = '1';
  }
  process.env.TEST_DATABASE_URL = url;
  const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  if (await isListening(redis.hostname, Number(redis.port || 6379))) process.env[REQUIREMENTS_ENV.redis] = 'true';

  if (has('postgres')) {
    run.workerDatabases = [];
    for (let worker = 1; worker <= Number(globalConfig.maxWorkers ?? 1); worker++) {
      run.workerDatabases.push(await copyDatabase(url, workerDatabaseUrl(url, String(worker))));
    }
    process.env[BASE_DATABASE_ENV] = url;
    if (pgbouncerBinary()) process.env[REQUIREMENTS_ENV.pgbouncer] = 'true';
    if (process.env.TEST_PGBOUNCER === 'true') {
      // Every app and server of the run reaches the database through PgBouncer in transaction mode, as
      // production may; what needs a session (LISTEN, the migration lock) gets the direct URL.
      run.pgbouncer = await startPgBouncer(url);
      process.env[BASE_DIRECT_DATABASE_ENV] = url;
      process.env[BASE_DATABASE_ENV] = run.pgbouncer.url(url);
      process.env.TEST_DATABASE_DIRECT_URL = url;
      url = run.pgbouncer.url(url);
      process.env.TEST_DATABASE_URL = url;
    }
  } else if (process.env.TEST_PGBOUNCER === 'true') {
    throw new Error('TEST_PGBOUNCER=true needs a PostgreSQL server (TEST_DATABASE_URL or one at 127.0.0.1:5432)');
  }
  shareTestCertificate();
  process.env.TEST_BUILD_DIR = buildForTests();
}

/** Makes `target` anew as a copy of the (migrated, unused) database at `source`; answers `target`. */
async function copyDatabase(source: string, target: string): Promise<string> {
  await recreateDatabase(target, true);
  const admin = new URL(source);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const name = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));
    await client.query(`CREATE DATABASE "${name(target)}" TEMPLATE "${name(source)}"`);
  } finally {
    await client.end();
  }
  return target;
}

/** Drops the database and, unless only dropping, creates it empty. */
export async function recreateDatabase(url: string, drop = false): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name.includes('test')) {
    throw new Error(`Refusing to run tests on database "${name}": its name must contain "test"`);
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    if (!drop) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

function isListening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(500);
    const settle = (listening: boolean) => {
      socket.destroy();
      resolve(listening);
    };
    socket.once('connect', () => settle(true));
    socket.once('error', () => settle(false));
    socket.once('timeout', () => settle(false));
  });
}
