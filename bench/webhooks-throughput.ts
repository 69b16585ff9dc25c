/**
 * Webhook throughput, with one dispatching instance sending to local HTTPS receivers. Two scenarios:
 * 1. one endpoint under write load: commits EVENTS single-event transactions (CONCURRENCY at a time) for one
 *    endpoint; reports deliveries per second (the drain rate) and the latency from commit to receipt;
 * 2. one dead endpoint among HEALTHY_ENDPOINTS healthy ones (issue 37): an organisation's endpoint accepts
 *    connections and never answers, DEAD_BACKLOG of its deliveries waiting; then HEALTHY_EVENTS single-event
 *    transactions of the other organisations (one endpoint each, in turn), HEALTHY_RATE a second, a load the
 *    dispatcher keeps up with; reports the healthy deliveries' latency from commit to receipt and the dead
 *    endpoint's most open connections.
 * Needs PostgreSQL: BENCH_DATABASE_URL, else 127.0.0.1:5432, on a database of its own (made anew, dropped
 * afterwards). WEBHOOK_CONCURRENCY and WEBHOOK_ENDPOINT_CONCURRENCY are read as the service reads them.
 * Run: npm run bench:webhooks
 */
import 'reflect-metadata';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TLSSocket } from 'node:tls';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '../src/app.factory';
import { OrganisationsService } from '../src/auth/organisations.service';
import { loadConfig } from '../src/config/config';
import { Database } from '../src/database/database';
import { migrate } from '../src/database/migrate';
import { cliWrite } from '../src/database/write-context';
import { DomainEvents } from '../src/events/domain-events';
import { WebhooksService } from '../src/webhooks/webhooks.service';
import { recreateDatabase } from '../test/support/global-setup';
import { makeSelfSignedCertificate, TestCertificate, TrustCertificateModule } from '../test/support/tls';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const HEALTHY_ENDPOINTS = Number(process.env.BENCH_HEALTHY_ENDPOINTS ?? 100);
const HEALTHY_EVENTS = Number(process.env.BENCH_HEALTHY_EVENTS ?? 3_000);
const HEALTHY_RATE = Number(process.env.BENCH_HEALTHY_RATE ?? 200);
const DEAD_BACKLOG = Number(process.env.BENCH_DEAD_BACKLOG ?? 1_000);
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/skills_webhooks_bench_test_${process.pid}`;

/** A receiver that answers 200 at once and notes when each event (by its `data.seq`) arrived. */
class Receiver {
  private server?: Server;
  private receivedAt: number[] = [];
  private received = 0;
  private expected = 0;
  private allReceived: () => void = () => undefined;

  constructor(private readonly certificate: TestCertificate) {}

  async start(): Promise<this> {
    this.server = createServer({ key: this.certificate.key, cert: this.certificate.cert }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const seq = (JSON.parse(Buffer.concat(chunks).toString()) as { data: { seq: number } }).data.seq;
        this.receivedAt[seq] = performance.now();
        response.writeHead(200).end();
        if (++this.received === this.expected) this.allReceived();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path: string): string {
    return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  /** Forgets what came before; resolves once `count` events arrived, with when each did. */
  expect(count: number): Promise<number[]> {
    this.receivedAt = new Array<number>(count);
    this.received = 0;
    this.expected = count;
    return new Promise((resolve) => (this.allReceived = () => resolve(this.receivedAt)));
  }

  close(): void {
    this.server?.closeAllConnections();
    this.server?.close();
  }
}

/** A receiver that accepts connections and never answers; counts the connections open at once. */
class DeadReceiver {
  private server?: Server;
  private readonly open = new Set<TLSSocket>();
  mostOpen = 0;

  constructor(private readonly certificate: TestCertificate) {}

  async start(): Promise<this> {
    this.server = createServer({ key: this.certificate.key, cert: this.certificate.cert }, (request) =>
      request.resume(),
    );
    this.server.on('secureConnection', (socket: TLSSocket) => {
      this.open.add(socket);
      this.mostOpen = Math.max(this.mostOpen, this.open.size);
      socket.once('close', () => this.open.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get openNow(): number {
    return this.open.size;
  }

  url(path: string): string {
    return `https://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  close(): void {
    for (const socket of this.open) socket.destroy();
    this.server?.close();
  }
}

interface Latencies {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

function latencies(receivedAt: number[], committedAt: number[]): Latencies {
  const sorted = receivedAt.map((at, seq) => at - committedAt[seq]).sort((a, b) => a - b);
  const percentile = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return {
    p50: Math.round(percentile(50)),
    p90: Math.round(percentile(90)),
    p99: Math.round(percentile(99)),
    max: Math.round(sorted[sorted.length - 1]),
  };
}

/**
 * Commits `count` single-event transactions for `organisationOf(seq)`, CONCURRENCY at a time, each no earlier
 * than `perSecond` allows (as fast as they go without it); answers when each committed.
 */
async function emit(
  app: INestApplication,
  count: number,
  organisationOf: (seq: number) => string,
  perSecond?: number,
): Promise<number[]> {
  const database = app.get(Database);
  const events = app.get(DomainEvents);
  const committedAt = new Array<number>(count);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const seq = next++;
        if (perSecond) await sleep(Math.max(0, started + (seq * 1000) / perSecond - performance.now()));
        await database.transaction(
          (manager) => events.publish(manager, organisationOf(seq), 'employee.created', { seq } as never),
          cliWrite(),
        );
        committedAt[seq] = performance.now();
      }
    }),
  );
  return committedAt;
}

async function register(
  app: INestApplication,
  name: string,
  url: string,
): Promise<{ organisation: string; endpoint: string }> {
  const organisation = await app.get(OrganisationsService).create(name);
  const endpoint = await app
    .get(WebhooksService)
    .create(organisation.id, { url, events: ['employee.created'], secret: 'bench-secret' }, cliWrite());
  return { organisation: organisation.id, endpoint: endpoint.id };
}

async function oneEndpointUnderWrites(app: INestApplication, receiver: Receiver): Promise<object> {
  const { organisation } = await register(app, 'Bench', receiver.url('/bench'));
  const done = receiver.expect(EVENTS);
  const started = performance.now();
  const committedAt = await emit(app, EVENTS, () => organisation);
  const committed = performance.now();
  const receivedAt = await done;
  const seconds = (performance.now() - started) / 1000;
  return {
    scenario: 'one endpoint under write load',
    events: EVENTS,
    emitterConcurrency: CONCURRENCY,
    commitsPerSecond: Math.round(EVENTS / ((committed - started) / 1000)),
    deliveriesPerSecond: Math.round(EVENTS / seconds),
    totalSeconds: Number(seconds.toFixed(2)),
    // Receipt can precede the emitter's own "committed" mark by a hair, since the nudge fires on COMMIT.
    latencyMs: latencies(receivedAt, committedAt),
  };
}

async function deadAmongHealthy(app: INestApplication, receiver: Receiver, dead: DeadReceiver): Promise<object> {
  const deadOne = await register(app, 'Bench dead', dead.url('/dead'));
  const healthy: string[] = [];
  for (let n = 0; n < HEALTHY_ENDPOINTS; n += 1) {
    healthy.push((await register(app, `Bench healthy ${n}`, receiver.url(`/healthy/${n}`))).organisation);
  }
  const database = app.get(Database);
  await database.transaction(
    (manager) =>
      app.get(DomainEvents).publishMany(
        manager,
        deadOne.organisation,
        Array.from({ length: DEAD_BACKLOG }, (_, seq) => ({
          name: 'employee.created' as const,
          occurredAt: new Date(),
          data: { seq } as never,
        })),
      ),
    cliWrite(),
  );
  const deadline = Date.now() + 30_000;
  while (dead.openNow === 0 && Date.now() < deadline) await sleep(10);
  // The dead endpoint holds its sends (WEBHOOK_TIMEOUT_MS each) while the healthy ones are measured.
  const done = receiver.expect(HEALTHY_EVENTS);
  const started = performance.now();
  const committedAt = await emit(app, HEALTHY_EVENTS, (seq) => healthy[seq % healthy.length], HEALTHY_RATE);
  const receivedAt = await done;
  const seconds = (performance.now() - started) / 1000;
  // Its backlog would hold the shutdown for a timeout per send: drop it, then end the sends in flight.
  await database
    .manager()
    .query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1 AND outcome IS NULL', [deadOne.endpoint]);
  return {
    scenario: `one dead endpoint among ${HEALTHY_ENDPOINTS} healthy ones`,
    deadBacklog: DEAD_BACKLOG,
    deadEndpointMostOpenConnections: dead.mostOpen,
    healthyEvents: HEALTHY_EVENTS,
    healthyEventsPerSecond: Math.round(HEALTHY_EVENTS / seconds),
    healthyLatencyMs: latencies(receivedAt, committedAt),
  };
}

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  await migrate(DATABASE_URL);

  const certificate = makeSelfSignedCertificate();
  const receiver = await new Receiver(certificate).start();
  const dead = await new DeadReceiver(certificate).start();
  const config = loadConfig({
    DATABASE_URL,
    SERVICE_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'silent',
    // The defaults unless set: how many sends at once, in all and to one endpoint.
    WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY,
    WEBHOOK_ENDPOINT_CONCURRENCY: process.env.WEBHOOK_ENDPOINT_CONCURRENCY,
  });
  const runtime = { config, databaseUrl: DATABASE_URL, poolSize: 10, embedded: false, close: async () => undefined };
  const app = await createApp(runtime, [TrustCertificateModule.of(certificate)], { dispatch: true });
  await app.init();

  try {
    console.log(JSON.stringify(await oneEndpointUnderWrites(app, receiver), null, 2));
    console.log(JSON.stringify(await deadAmongHealthy(app, receiver, dead), null, 2));
  } finally {
    dead.close();
    await app.close();
    receiver.close();
    await recreateDatabase(DATABASE_URL, true).catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
