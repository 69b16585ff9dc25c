import { removeTestBuild } from './build';
import { recreateDatabase } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const run = globalThis as {
    embeddedTestDatabase?: { close(): Promise<void> };
    ownTestDatabase?: string;
    workerDatabases?: string[];
    pgbouncer?: { stop(): Promise<void> };
  };
  await run.pgbouncer?.stop();
  await run.embeddedTestDatabase?.close();
  for (const url of run.workerDatabases ?? []) await recreateDatabase(url, true);
  if (run.ownTestDatabase) await recreateDatabase(run.ownTestDatabase, true);
  removeTestBuild(process.env.TEST_BUILD_DIR);
}
