import { setTimeout } from 'node:timers/promises';
import { DataSource, MigrationExecutor, QueryRunner } from 'typeorm';
import { createDataSourceOptions } from './data-source-options';
import { applySqlFunctions, SQL_FUNCTIONS_ROOT } from './sql-functions';

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
 * Applies pending migrations, then the SQL function files whose text changed (sql-functions.ts), under a
 * database-wide advisory lock, on one connection of its own and without statement timeouts: instances starting
 * together on an empty database queue here, the first applies each migration and function once, the others find
 * nothing to do. Returns the names applied: the migrations', then the function files' (`ratings/sql/….sql`).
 * `sqlFunctionsRoot`: where the function files are (the code's own, unless a test points elsewhere).
 */
export async function migrate(url: string, sqlFunctionsRoot = SQL_FUNCTIONS_ROOT): Promise<string[]> {
  const dataSource = await new DataSource(createDataSourceOptions(url, 1)).initialize();
  try {
    const runner = dataSource.createQueryRunner();
    try {
      await takeLock(runner);
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      const applied = await executor.executePendingMigrations();
      const functions = await applySqlFunctions(runner, sqlFunctionsRoot);
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      return [...applied.map((migration) => migration.name), ...functions];
    } finally {
      await runner.release();
    }
  } finally {
    // Closing the connection also ends the lock if anything above failed.
    await dataSource.destroy();
  }
}
