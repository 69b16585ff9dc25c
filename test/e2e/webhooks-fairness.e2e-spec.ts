import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Metrics } from '../../src/metrics/metrics';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf, TEST_SERVICE_SECRET_KEY, TestTenant } from '../support/app';
import { HangingReceiver } from '../support/hanging-receiver';
import { createEmployee, unique } from '../support/people.factory';
import { describeIfPostgres } from '../support/requirements';
import { ServerProcess, startWorkerProcess } from '../support/server-process';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { waitUntil } from '../support/wait-until';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 37. Short enough that A's sends time out and are replaced while B's are measured, so the limit is
 * checked across claims; with the claim before this issue (oldest first across everyone, WEBHOOK_CONCURRENCY
 * at a time) A's 300 still took every slot for ~20 s, B's waiting behind them.
 */
const TIMEOUT_MS = 2000;
const A_BACKLOG = 300;
const B_CHANGES = 25;
/** The bound the issue sets, from B's 201 to its delivery's arrival. */
const B_BOUND_MS = 1500;
const PER_ENDPOINT = 4;

interface DeliveryRow {
  outcome: string | null;
}

/** A gauge's one unlabelled value, as Prometheus would scrape it from `app`. */
async function gauge(app: NestExpressApplication, name: string): Promise<number> {
  const text = await app.get(Metrics).registry.getSingleMetricAsString(name);
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

describe('webhooks: fair delivery across organisations', () => {
  const certificate = testCertificate();
  const trust = TrustCertificateModule.of(certificate);
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
  });
  afterAll(() => receiver.stop());

  const as = (app: NestExpressApplication, tenant: TestTenant) =>
    apiClient(
      () => app,
      () => tenant,
    );

  async function register(app: NestExpressApplication, tenant: TestTenant, url: string): Promise<string> {
    const response = await as(app, tenant)
      .post<{ id: string }>('/webhooks', { url, events: ['employee.created'] })
      .expect(201);
    return response.body.data.id;
  }

  /**
   * The case on `api` (the instance the organisations call; whoever dispatches): A's endpoint accepts
   * connections and never answers, with A_BACKLOG deliveries of A waiting; then B, whose receiver answers at
   * once, creates B_CHANGES employees 200 ms apart. Answers B's delays (201 to arrival), in ms.
   */
  async function noisyNeighbour(app: NestExpressApplication, path: string): Promise<number[]> {
    const hanging = await new HangingReceiver(certificate).start();
    const a = await createTenant(app, 'A');
    const b = await createTenant(app, 'B');
    const endpointA = await register(app, a, hanging.url('/a'));
    await register(app, b, receiver.url(path));
    try {
      const items = Array.from({ length: A_BACKLOG }, () => {
        const id = unique('a');
        return { personnelNumber: id, firstName: 'Ada', lastName: 'Lovelace', businessEmail: `${id}@example.com` };
      });
      await as(app, a).post('/employees/bulk', { items }).expect(200);
      await waitUntil(() => hanging.openConnections === PER_ENDPOINT, `A's endpoint holds ${PER_ENDPOINT} connections`);
      // An operator sees the stuck receiver, and no more than that: the gauge has no endpoint or organisation.
      await waitUntil(
        async () => (await gauge(app, 'webhook_endpoints_at_in_flight_limit')) === 1,
        'the gauge counts A',
      );

      const answeredAt = new Map<string, number>();
      for (let change = 0; change < B_CHANGES; change += 1) {
        const employee = await createEmployee(app, b);
        answeredAt.set(employee.id, Date.now());
        await sleep(200);
      }
      const received = await receiver.waitFor(path, B_CHANGES, 30_000);
      const delays = received.map((request) => {
        const { data } = JSON.parse(request.body.toString()) as { data: { id: string } };
        return request.receivedAt - answeredAt.get(data.id)!;
      });
      expect(hanging.mostOpenAtOnce).toBe(PER_ENDPOINT);
      // A's sends went on meanwhile, one attempt each, each timing out and making room for the next.
      const sentToA: DeliveryRow[] = await dataSourceOf(app).query(
        `SELECT outcome FROM webhook_deliveries WHERE endpoint_id = $1 AND outcome IS NOT NULL`,
        [endpointA],
      );
      expect(sentToA.length).toBeGreaterThanOrEqual(PER_ENDPOINT);
      expect(new Set(hanging.deliveries).size).toBe(hanging.deliveries.length);
      return delays;
    } finally {
      // Removing A's endpoint drops its backlog; closing its connections ends the sends in flight at once.
      await as(app, a).del(`/webhooks/${endpointA}`).expect(200);
      await hanging.stop();
    }
  }

  function expectWithinBound(delays: number[]): void {
    const sorted = [...delays].sort((x, y) => x - y);
    // The margin against the bound, for whoever tunes it: printed, not asserted.
    process.stdout.write(`B's delays (ms): median ${sorted[sorted.length >> 1]}, max ${sorted[sorted.length - 1]}\n`);
    expect(sorted).toHaveLength(B_CHANGES);
    expect(sorted[sorted.length - 1]).toBeLessThan(B_BOUND_MS);
  }

  it(`delivers B's within ${B_BOUND_MS} ms of its 201 while A's dead endpoint holds ${PER_ENDPOINT} connections, one process dispatching`, async () => {
    const app = await createTestApp({ webhookTimeoutMs: TIMEOUT_MS }, [trust], { dispatch: true });
    try {
      expectWithinBound(await noisyNeighbour(app, '/b-one-process'));
    } finally {
      await app.close();
    }
  }, 90_000);

  // Workers need PostgreSQL: the embedded database serves one process.
  describeIfPostgres('with two worker processes (DISPATCH_MODE=worker) and the API not dispatching', () => {
    let certificateDir: string;
    let api: NestExpressApplication;

    beforeAll(async () => {
      certificateDir = mkdtempSync(join(tmpdir(), 'fairness-ca-'));
      writeFileSync(join(certificateDir, 'receiver.pem'), certificate.cert);
      api = await createTestApp({ dispatchMode: 'off' }, [trust], { dispatch: true });
    });
    afterAll(async () => {
      await api.close();
      rmSync(certificateDir, { recursive: true, force: true });
    });

    /** A worker as an operator starts one (node dist/main.js), trusting the receivers' certificate as a private CA. */
    const startWorker = () =>
      startWorkerProcess({
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        NODE_EXTRA_CA_CERTS: join(certificateDir, 'receiver.pem'),
      });

    async function withWorkers(work: (workers: ServerProcess[]) => Promise<void>): Promise<void> {
      const workers = await Promise.all([startWorker(), startWorker()]);
      try {
        await work(workers);
      } finally {
        await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
      }
    }

    it(`delivers B's within ${B_BOUND_MS} ms of its 201 and holds A's dead endpoint to ${PER_ENDPOINT} connections across both`, async () => {
      await withWorkers(async () => expectWithinBound(await noisyNeighbour(api, '/b-two-workers')));
    }, 120_000);

    it('sends each delivery exactly once across both workers, to every endpoint', async () => {
      const tenant = await createTenant(api);
      const paths = ['/once-1', '/once-2', '/once-3'];
      const endpoints = await Promise.all(paths.map((path) => register(api, tenant, receiver.url(path))));
      await withWorkers(async () => {
        const count = 120;
        const items = Array.from({ length: count }, () => {
          const id = unique('once');
          return { personnelNumber: id, firstName: 'Ada', lastName: 'Lovelace', businessEmail: `${id}@example.com` };
        });
        await as(api, tenant).post('/employees/bulk', { items }).expect(200);
        for (const path of paths) await receiver.waitFor(path, count, 30_000);
        await waitUntil(async () => {
          const rows: DeliveryRow[] = await dataSourceOf(api).query(
            `SELECT outcome FROM webhook_deliveries WHERE endpoint_id = ANY ($1)`,
            [endpoints],
          );
          return rows.length === count * paths.length && rows.every((row) => row.outcome === 'delivered');
        }, 'every delivery is recorded as delivered');
        // Both workers poll (every 2 s) at least once more: a second send of any would come now.
        await sleep(3000);
      });
      for (const path of paths) {
        const received = receiver.on(path);
        expect(received).toHaveLength(120);
        expect(new Set(received.map((request) => request.headers['x-service-delivery'])).size).toBe(120);
        expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(120);
      }
    }, 90_000);

    it('loses nothing when a worker is killed (SIGKILL) mid-burst: the other sends the rest, and later what it had in flight', async () => {
      const tenant = await createTenant(api);
      const path = '/killed';
      // Slow answers keep sends in flight when the kill comes.
      receiver.behave(path, { delayMs: 300 });
      const endpoint = await register(api, tenant, receiver.url(path));
      const count = 100;
      const items = Array.from({ length: count }, () => {
        const id = unique('kill');
        return { personnelNumber: id, firstName: 'Ada', lastName: 'Lovelace', businessEmail: `${id}@example.com` };
      });
      let created: string[] = [];
      const [first, second] = await Promise.all([startWorker(), startWorker()]);
      try {
        created = (
          await as(api, tenant).post<Array<{ id: string }>>('/employees/bulk', { items }).expect(200)
        ).body.data.map((result) => result.id);
        await receiver.waitFor(path, 10, 30_000);
        await first.stop('SIGKILL');
        // What the killed worker had claimed goes again once its claim is stale (WEBHOOK_TIMEOUT_MS + 30 s).
        await waitUntil(
          async () => {
            const rows: DeliveryRow[] = await dataSourceOf(api).query(
              `SELECT outcome FROM webhook_deliveries WHERE endpoint_id = $1`,
              [endpoint],
            );
            return rows.length === count && rows.every((row) => row.outcome === 'delivered');
          },
          'every delivery is recorded as delivered',
          { timeoutMs: 60_000 },
        );
      } finally {
        await Promise.all([first.stop('SIGKILL'), second.stop('SIGKILL')]);
      }
      const received = receiver
        .on(path)
        .map((request) => (JSON.parse(request.body.toString()) as { data: { id: string } }).data.id);
      expect(new Set(received)).toEqual(new Set(created));
      // Sent twice at most: what the killed worker sent without its outcome written. With answers of 300 ms, that is
      // the sends it had under way and those of the wave before, whose outcomes it was writing as the next went out.
      expect(received.length - count).toBeLessThanOrEqual(2 * PER_ENDPOINT);
    }, 120_000);
  });
});
