import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppConfig } from '../../src/config/config';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf, TEST_SERVICE_SECRET_KEY, TestTenant } from '../support/app';
import { createEmployee, unique } from '../support/people.factory';
import { describeIfPostgres } from '../support/requirements';
import { startWorkerProcess } from '../support/server-process';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { waitUntil } from '../support/wait-until';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Longer than any test: a worker that sends within one did not wait for its poll. */
const HOUR_MS = 3_600_000;

interface DeliveryRow {
  outcome: string | null;
  claimed_at: Date | null;
}

function deliveryRows(app: NestExpressApplication, endpointId: string): Promise<DeliveryRow[]> {
  return dataSourceOf(app).query(
    'SELECT outcome, claimed_at FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at, id',
    [endpointId],
  );
}

/** The backends of this test database that a worker holds a LISTEN on, once it holds it. */
async function listeningBackends(app: NestExpressApplication): Promise<number[]> {
  const rows: Array<{ pid: number }> = await dataSourceOf(app).query(
    `SELECT pid FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'webhook-delivery-listener'
        AND state = 'idle' AND query LIKE 'LISTEN %'`,
  );
  return rows.map((row) => row.pid);
}

// Modes other than api need PostgreSQL: the embedded database serves one process, and has no LISTEN/NOTIFY across them.
describeIfPostgres('DISPATCH_MODE', () => {
  const certificate = testCertificate();
  const trust = TrustCertificateModule.of(certificate);
  let receiver: WebhookReceiver;
  /** An API instance with DISPATCH_MODE=off, started as main starts it; it polls often, so it would send at once if it sent at all. */
  let api: NestExpressApplication;
  let tenant: TestTenant;
  let claimsByApi: jest.SpyInstance;

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
    api = await createTestApp({ dispatchMode: 'off', webhookPollIntervalMs: 100 }, [trust], { dispatch: true });
    tenant = await createTenant(api);
    claimsByApi = jest.spyOn(api.get(WebhookDeliveriesRepository), 'claim');
  });
  afterAll(async () => {
    await api.close();
    await receiver.stop();
  });
  // A worker that stops lets its LISTEN go; each test counts the listeners of its own worker.
  afterEach(() => waitUntil(async () => (await listeningBackends(api)).length === 0, 'no worker listens'));

  /** A worker in this process, started as main starts DISPATCH_MODE=worker (initialised, not listening). */
  const startWorker = (overrides: Partial<AppConfig> = {}) =>
    createTestApp({ dispatchMode: 'worker', webhookPollIntervalMs: HOUR_MS, ...overrides }, [trust], {
      dispatch: true,
    });

  async function register(path: string): Promise<string> {
    const response = await apiClient(
      () => api,
      () => tenant,
    )
      .post<{ id: string }>('/webhooks', { url: receiver.url(path), events: ['employee.created'] })
      .expect(201);
    return response.body.data.id;
  }

  async function delivered(endpointId: string, count: number): Promise<void> {
    await waitUntil(async () => {
      const rows = await deliveryRows(api, endpointId);
      return rows.length === count && rows.every((row) => row.outcome === 'delivered');
    }, `${count} deliveries are recorded as delivered`);
  }

  it('the API with DISPATCH_MODE=off records deliveries and sends none; a worker sends them', async () => {
    const endpointId = await register('/recorded');
    await createEmployee(api, tenant);
    await createEmployee(api, tenant);
    expect(await deliveryRows(api, endpointId)).toEqual([
      { outcome: null, claimed_at: null },
      { outcome: null, claimed_at: null },
    ]);

    const worker = await startWorker();
    try {
      await receiver.waitFor('/recorded', 2);
      await delivered(endpointId, 2);
    } finally {
      await worker.close();
    }
    expect(receiver.on('/recorded')).toHaveLength(2);
    // Over all of it, polling every 100 ms, the API never looked for deliveries to send.
    expect(claimsByApi).not.toHaveBeenCalled();
  });

  it('a worker whose poll is an hour away sends as soon as the API commits: the NOTIFY wakes it', async () => {
    const worker = await startWorker();
    try {
      // Listening, and done with the look it takes then: from here only a notification can wake it.
      await waitUntil(async () => (await listeningBackends(api)).length === 1, 'the worker listens');
      const endpointId = await register('/notified');
      await createEmployee(api, tenant);
      await receiver.waitFor('/notified', 1);
      // With an Idempotency-Key the change joins the request's batched transaction: announced on its commit.
      const id = unique('p');
      await apiClient(
        () => api,
        () => tenant,
      )
        .call('post', '/employees')
        .set('Idempotency-Key', unique('key'))
        .send({ personnelNumber: id, firstName: 'Ada', lastName: 'Lovelace', businessEmail: `${id}@example.com` })
        .expect(201);
      await receiver.waitFor('/notified', 2);
      await delivered(endpointId, 2);
    } finally {
      await worker.close();
    }
  });

  it('a worker listens again after losing its connection, and sends what was committed meanwhile', async () => {
    const worker = await startWorker();
    try {
      await waitUntil(async () => (await listeningBackends(api)).length === 1, 'the worker listens');
      const [lost] = await listeningBackends(api);
      await dataSourceOf(api).query('SELECT pg_terminate_backend($1)', [lost]);
      const endpointId = await register('/reconnected');
      await createEmployee(api, tenant);
      await waitUntil(async () => {
        const backends = await listeningBackends(api);
        return backends.length === 1 && backends[0] !== lost;
      }, 'the worker listens on a new connection');
      await createEmployee(api, tenant);
      await receiver.waitFor('/reconnected', 2);
      await delivered(endpointId, 2);
    } finally {
      await worker.close();
    }
  });

  it('a worker sends at most WEBHOOK_CONCURRENCY deliveries at once', async () => {
    const worker = await startWorker({ webhookConcurrency: 3 });
    const answerMs = 300;
    try {
      await waitUntil(async () => (await listeningBackends(api)).length === 1, 'the worker listens');
      const claims = jest.spyOn(worker.get(WebhookDeliveriesRepository), 'claim');
      // An organisation of its own, so this endpoint is the only one its employees' deliveries go to.
      const own = await createTenant(api);
      const asOwn = apiClient(
        () => api,
        () => own,
      );
      const endpointId = (
        await asOwn
          .post<{ id: string }>('/webhooks', { url: receiver.url('/concurrency'), events: ['employee.created'] })
          .expect(201)
      ).body.data.id;
      receiver.behave('/concurrency', { delayMs: answerMs });
      // Eight deliveries committed at once, more than the endpoint's limit (4) and the worker's (3).
      const items = Array.from({ length: 8 }, () => {
        const id = unique('c');
        return { personnelNumber: id, firstName: 'Ada', lastName: 'Lovelace', businessEmail: `${id}@example.com` };
      });
      await asOwn.post('/employees/bulk', { items }).expect(200);
      const received = (await receiver.waitFor('/concurrency', 8)).map((request) => request.receivedAt);
      await delivered(endpointId, 8);
      // Each request is open for `answerMs` from its arrival: at any arrival, at most 3 are open, itself included,
      // so the eight came in at least three waves.
      const openAt = received.map((at) => received.filter((other) => other <= at && at < other + answerMs).length);
      expect(Math.max(...openAt)).toBeLessThanOrEqual(3);
      expect(Math.max(...received) - Math.min(...received)).toBeGreaterThanOrEqual(2 * answerMs);
      // It may hold more than it sends (4 × its slots), queued behind the 3 it sends.
      expect(claims).toHaveBeenCalledWith(expect.any(String), 12, 32, expect.any(Date), expect.any(Date), []);
    } finally {
      await worker.close();
    }
  });

  describe('as a process of its own (node dist/main.js)', () => {
    let certificateDir: string;

    beforeAll(() => {
      certificateDir = mkdtempSync(join(tmpdir(), 'dispatch-worker-ca-'));
      writeFileSync(join(certificateDir, 'receiver.pem'), certificate.cert);
    });
    afterAll(() => rmSync(certificateDir, { recursive: true, force: true }));

    it('opens no HTTP port, sends what the API commits, and finishes a send in flight on SIGTERM', async () => {
      const worker = await startWorkerProcess({
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_POLL_INTERVAL_MS: String(HOUR_MS),
        // The receiver's self-signed certificate, trusted the way an operator would add a private CA.
        NODE_EXTRA_CA_CERTS: join(certificateDir, 'receiver.pem'),
      });
      let exitCode: number | null | undefined;
      try {
        await expect(fetch(`http://127.0.0.1:${worker.port}/health/live`)).rejects.toThrow();

        // The receiver answers late, so the delivery is still in flight when the signal comes.
        receiver.behave('/spawned', { delayMs: 2000 });
        const endpointId = await register('/spawned');
        await createEmployee(api, tenant);
        await receiver.waitFor('/spawned', 1);
        exitCode = await worker.stop('SIGTERM');
        expect(await deliveryRows(api, endpointId)).toEqual([{ outcome: 'delivered', claimed_at: expect.any(Date) }]);
        expect(worker.output()).toContain('finishing the webhook deliveries in flight');
      } finally {
        exitCode ??= await worker.stop('SIGKILL');
      }
      expect(exitCode).toBe(0);
    }, 60_000);
  });
});
