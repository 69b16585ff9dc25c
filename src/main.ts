import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { ensureFirstStartKey } from './auth/first-start';
import { ConfigError, loadConfig } from './config/config';
import { EmbeddedDatabaseInUseError } from './database/embedded-database';
import { openRuntime } from './runtime';

async function main(): Promise<void> {
  const runtime = await openRuntime(loadConfig());
  const app = await createApp(runtime, [], { dispatch: true });
  await app.listen(runtime.config.port);
  const port = Number(new URL(await app.getUrl()).port);
  if (runtime.embedded) await ensureFirstStartKey(app, port);
  new Logger('Main').log(`Listening on port ${port}`);

  // Close in order: stop taking requests and finish work in flight, then release the database.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    new Logger('Main').log(`${signal} received, shutting down`);
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof EmbeddedDatabaseInUseError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
