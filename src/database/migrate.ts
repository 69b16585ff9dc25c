import { setTimeout } from 'node:timers/promises';
import { DataSource, MigrationExecutor, QueryRunner } from 'typeorm';
import { createDataSourceOptions } from './data-source-options';

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
 * Applies pending migrations under a database-wide advisory lock, on one connection of its own and
 * without statement timeouts: instances starting together on an empty database queue here, the first
 * applies each migration once, the others find nothing pending. Returns the names applied.
 */
export async function migrate(url: string): Promise<string[]> {
  const dataSource = await new DataSource(createDataSourceOptions(url, 1)).initialize();
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
