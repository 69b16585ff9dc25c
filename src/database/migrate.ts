import { setTimeout } from 'node:timers/promises';
import { DataSource, MigrationExecutor, MigrationInterface, QueryRunner } from 'typeorm';
import { createDataSourceOptions } from './data-source-options';
import { MIGRATIONS } from './migrations';

/** Any constant shared by every instance: the advisory lock that queues instances migrating one database. */
const MIGRATION_LOCK_KEY = 7_263_912_540;

/** How long an instance waits between attempts to take the migration lock. */
const LOCK_POLL_MS = 200;

/**
 * Polls for the lock rather than waiting in pg_advisory_lock: a CREATE INDEX CONCURRENTLY in a migration
 * waits for every transaction still running, and a waiter blocked inside pg_advisory_lock would be one of
 * them, waiting in turn for the migrating instance (a deadlock).
 */
async function takeLock(runner: QueryRunner): Promise<void> {
  for (;;) {
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY])) as {
      locked: boolean;
    }[];
    if (locked) return;
    await setTimeout(LOCK_POLL_MS);
  }
}

/**
 * Applies pending migrations under a database-wide advisory lock, on one connection of its own and without
 * statement timeouts: instances starting together on an empty database queue here, the first applies each migration
 * once, the others find nothing to do. Returns the names of those applied.
 *
 * Every start runs it (docs/api-decisions.md: pending migrations are applied at start), as do `db migrate`, the tests' global
 * setup and the bench seed, while instances of the release before may still serve (a rolling update): so a release's
 * migrations only add what it needs beside what that release uses. A changed SQL function is created under a new
 * name by the migration that introduces it, never replaced; what only the release before used is dropped by a
 * migration of the release after this one (docs/adr/0001). `migrations`: the code's own, unless a test gives others.
 */
export async function migrate(
  url: string,
  migrations: Array<new () => MigrationInterface> = MIGRATIONS,
): Promise<string[]> {
  const dataSource = await new DataSource({ ...createDataSourceOptions(url, 1), migrations }).initialize();
  try {
    const runner = dataSource.createQueryRunner();
    try {
      await takeLock(runner);
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      const applied = await executor.executePendingMigrations();
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      return applied.map((migration) => migration.name);
    } finally {
      await runner.release();
    }
  } finally {
    // Closing the connection also ends the lock if anything above failed.
    await dataSource.destroy();
  }
}
