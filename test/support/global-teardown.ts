import { recreateDatabase } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const run = globalThis as { embeddedTestDatabase?: { close(): Promise<void> }; ownTestDatabase?: string };
  await run.embeddedTestDatabase?.close();
  if (run.ownTestDatabase) await recreateDatabase(run.ownTestDatabase, true);
}
