import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { INestApplicationContext, Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Readiness } from './health/readiness';
import { idleConnectionSweep } from './http/http-server';
import type { Runtime } from './runtime';
import { flushTraces } from './tracing/trace-context';

/** How often a draining server looks for idle connections: one idle at two sweeps in a row is closed. */
const IDLE_SWEEP_MS = 100;

/**
 * SIGTERM and SIGINT for a server, in the order docs/api-decisions.md ("Operations") gives: readiness answers 503 at
 * once; on SIGTERM the instance keeps serving for SHUTDOWN_DELAY_MS, answering with `Connection: close`, so a
 * balancer stops sending and kept-alive clients reconnect elsewhere; then it stops accepting, lets the
 * requests and webhook deliveries in flight finish, and exits 0 (see exitOnSignals).
 */
export function exitGracefullyOnSignals(app: NestExpressApplication, runtime: Runtime): void {
  exitOnSignals(runtime, async (signal, logger) => {
    app.get(Readiness).stop();
    const delayMs = signal === 'SIGTERM' ? runtime.config.shutdownDelayMs : 0;
    logger.log(`${signal} received: not ready; serving ${delayMs} ms more with Connection: close, then draining`);
    await sleep(delayMs);
    await closeServer(app.getHttpServer());
    await app.close(); // the dispatcher finishes its deliveries in flight, then the pool closes
  });
}

/**
 * SIGTERM and SIGINT for a DISPATCH_MODE=worker process. With no HTTP listener there is nothing to drain for a
 * balancer (no SHUTDOWN_DELAY_MS): it stops claiming, lets the deliveries in flight finish and record their
 * outcome, and exits 0 (see exitOnSignals).
 */
export function exitWorkerGracefullyOnSignals(app: INestApplicationContext, runtime: Runtime): void {
  exitOnSignals(runtime, async (signal, logger) => {
    logger.log(`${signal} received: finishing the webhook deliveries in flight`);
    await app.close(); // the dispatcher finishes its deliveries in flight, then the pool closes
  });
}

/**
 * On the first SIGTERM or SIGINT (later ones are ignored): runs `stop`, closes the runtime and exits 0, no later
 * than SHUTDOWN_TIMEOUT_MS after the signal whatever clients keep open. A delivery cut off by that deadline
 * stays claimed and is sent again later.
 */
function exitOnSignals(runtime: Runtime, stop: (signal: NodeJS.Signals, logger: Logger) => Promise<void>): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    void exit(runtime, signal, stop);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function exit(
  runtime: Runtime,
  signal: NodeJS.Signals,
  stop: (signal: NodeJS.Signals, logger: Logger) => Promise<void>,
): Promise<void> {
  const logger = new Logger('Shutdown');
  const { shutdownTimeoutMs } = runtime.config;
  setTimeout(() => {
    logger.warn(`Still busy ${shutdownTimeoutMs} ms after ${signal}: exiting; unfinished deliveries are sent later`);
    process.exit(0);
  }, shutdownTimeoutMs).unref();
  try {
    await stop(signal, logger);
    await runtime.close();
  } catch (error) {
    logger.error(`Shutdown did not finish cleanly: ${(error as Error).message}`);
  }
  await flushTraces();
  process.exit(0);
}

/** Stops accepting and resolves once every connection has closed, closing each as soon as it is idle. */
async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweeper = setInterval(idleConnectionSweep(server), IDLE_SWEEP_MS);
  try {
    await closed;
  } finally {
    clearInterval(sweeper);
  }
}
