import { INestApplicationContext, Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config';

/** What of the runtime (src/runtime.ts) shutting down needs. */
interface OpenRuntime {
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * SIGTERM and SIGINT for a DISPATCH_MODE=worker process. With no HTTP listener there is nothing to drain
 * for a balancer (no SHUTDOWN_DELAY_MS): it stops claiming, lets the deliveries in flight finish and record
 * their outcome, and exits 0, no later than SHUTDOWN_TIMEOUT_MS after the signal. A delivery cut off by that
 * deadline stays claimed and is sent again later.
 */
export function exitWorkerGracefullyOnSignals(app: INestApplicationContext, runtime: OpenRuntime): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    void shutDown(app, runtime, signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function shutDown(app: INestApplicationContext, runtime: OpenRuntime, signal: NodeJS.Signals): Promise<void> {
  const logger = new Logger('Shutdown');
  const { shutdownTimeoutMs } = runtime.config;
  setTimeout(() => {
    logger.warn(`Still sending ${shutdownTimeoutMs} ms after ${signal}: exiting; unfinished deliveries are sent later`);
    process.exit(0);
  }, shutdownTimeoutMs).unref();

  logger.log(`${signal} received: finishing the webhook deliveries in flight`);
  try {
    await app.close(); // the dispatcher finishes its deliveries in flight, then the pool closes
    await runtime.close();
  } catch (error) {
    logger.error(`Shutdown did not finish cleanly: ${(error as Error).message}`);
  }
  process.exit(0);
}
