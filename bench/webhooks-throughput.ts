/**
 * Webhook throughput: commits EVENTS single-event transactions (CONCURRENCY at a time) for one endpoint,
 * lets one dispatching instance send them to a local HTTPS receiver, and reports deliveries per second and
 * the latency from commit to receipt. Needs PostgreSQL: BENCH_DATABASE_URL, else 127.0.0.1:5432, on a
 * database of its own (made anew, dropped afterwards). Run: npm run bench:webhooks
 */
import 'reflect-metadata';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/app.factory';
import { OrganisationsService } from '../src/auth/organisations.service';
import { loadConfig } from '../src/config/config';
import { Database } from '../src/database/database';
import { migrate } from '../src/database/migrate';
import { cliWrite } from '../src/database/write-context';
import { DomainEvents } from '../src/events/domain-events';
import { WebhooksService } from '../src/webhooks/webhooks.service';
import { recreateDatabase } from '../test/support/global-setup';
import { makeSelfSignedCertificate, TrustCertificateModule } from '../test/support/tls';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/skills_webhooks_bench_test_${process.pid}`;

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  await migrate(DATABASE_URL);

  const certificate = makeSelfSignedCertificate();
  const receivedAt = new Array<number>(EVENTS);
  let received = 0;
  let allReceived: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allReceived = resolve));
  const receiver = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seq = (JSON.parse(Buffer.concat(chunks).toString()) as { data: { seq: number } }).data.seq;
      receivedAt[seq] = performance.now();
      response.writeHead(200).end();
      if (++received === EVENTS) allReceived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  const config = loadConfig({
    DATABASE_URL,
    WEBHOOK_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'silent',
  });
  const runtime = { config, databaseUrl: DATABASE_URL, poolSize: 10, embedded: false, close: async () => undefined };
  const app = await createApp(runtime, [TrustCertificateModule.of(certificate)], { dispatch: true });
  await app.init();

  try {
    const organisation = await app.get(OrganisationsService).create('Bench');
    await app.get(WebhooksService).create(
      organisation.id,
      {
        url: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`,
        events: ['employee.created'],
        secret: 'bench-secret',
      },
      cliWrite(),
    );
    const database = app.get(Database);
    const events = app.get(DomainEvents);
    const committedAt = new Array<number>(EVENTS);

    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < EVENTS) {
          const seq = next++;
          await database.transaction(
            (manager) => events.publish(manager, organisation.id, 'employee.created', { seq } as never),
            cliWrite(),
          );
          committedAt[seq] = performance.now();
        }
      }),
    );
    const committed = performance.now();
    await done;
    const finished = performance.now();

    const latencies = receivedAt.map((at, seq) => at - committedAt[seq]).sort((a, b) => a - b);
    const percentile = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
    const seconds = (finished - started) / 1000;
    console.log(
      JSON.stringify(
        {
          events: EVENTS,
          emitterConcurrency: CONCURRENCY,
          commitsPerSecond: Math.round(EVENTS / ((committed - started) / 1000)),
          deliveriesPerSecond: Math.round(EVENTS / seconds),
          totalSeconds: Number(seconds.toFixed(2)),
          // Receipt can precede the emitter's own "committed" mark by a hair, since the nudge fires on COMMIT.
          latencyMs: {
            p50: Math.round(percentile(50)),
            p90: Math.round(percentile(90)),
            p99: Math.round(percentile(99)),
            max: Math.round(latencies[latencies.length - 1]),
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await app.close();
    receiver.close();
    await recreateDatabase(DATABASE_URL, true).catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
