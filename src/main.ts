// First: with OTEL_EXPORTER_OTLP_ENDPOINT set, the SDK must patch http, express and pg before they load.
import './tracing/tracing';
import { createServer } from 'node:net';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { AppConfig, ConfigError, loadConfig, unbindablePortError } from './config/config';
import { EmbeddedDatabaseInUseError } from './database/embedded-lock';
import { ensureFirstStart } from './first-start';
import { startupFailureLogger } from './http/logging';
import { MetricsServer } from './metrics/metrics-server';
import { openRuntime } from './runtime';
import { exitGracefullyOnSignals, exitWorkerGracefullyOnSignals } from './shutdown';

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.dispatchMode === 'worker') await dispatch(config);
  else await serve(config);
}

/** The HTTP API; DISPATCH_MODE=api also sends webhook deliveries and prunes, off leaves that to workers. */
async function serve(config: AppConfig): Promise<void> {
  await assertPortFree('PORT', config.port);
  await assertPortFree('METRICS_PORT', config.metricsPort);
  const runtime = await openRuntime(config);
  const app = await createApp(runtime, [], { dispatch: true });
  exitGracefullyOnSignals(app, runtime);
  await app.get(MetricsServer).start();
  await app.listen(config.port);
  const port = Number(new URL(await app.getUrl()).port);
  if (runtime.embedded) await ensureFirstStart(app, port);
  new Logger('Main').log(`Listening on port ${port}`);
}

/** DISPATCH_MODE=worker: sends webhook deliveries and prunes, with no HTTP listener (so no port, no PORT check). */
async function dispatch(config: AppConfig): Promise<void> {
  await assertPortFree('METRICS_PORT', config.metricsPort);
  const runtime = await openRuntime(config);
  const app = await createApp(runtime, [], { dispatch: true });
  exitWorkerGracefullyOnSignals(app, runtime);
  await app.init();
  await app.get(MetricsServer).start();
  app.flushLogs(); // what Nest buffered until its logger was set, which listen() prints in the API
  new Logger('Main').log('Dispatching webhook deliveries with no HTTP listener (DISPATCH_MODE=worker)');
}

/** A port in use is reported in one line before anything is made (the embedded database included). */
async function assertPortFree(variable: 'PORT' | 'METRICS_PORT', port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(unbindablePortError(variable, port, error)));
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

main().catch((error: unknown) => {
  const logger = startupFailureLogger();
  // A problem of the setting is one line that names it; anything else is logged with its cause.
  if (error instanceof ConfigError || error instanceof EmbeddedDatabaseInUseError) logger.fatal(error.message);
  else logger.fatal({ err: error }, 'Start-up failed');
  process.exit(1);
});
