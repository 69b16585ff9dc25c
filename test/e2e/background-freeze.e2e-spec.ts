import { Injectable, Module } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { PruneResult, RegisterRetentionStep, RetentionStep } from '../../src/retention/retention-step';
import { RetentionJob, RetentionReport } from '../../src/retention/retention.job';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { dispatcherRounds } from '../support/dispatcher';
import { createEmployee } from '../support/people.factory';
import { describeIfPostgres } from '../support/requirements';
import { TcpProxy } from '../support/tcp-proxy';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { waitUntil } from '../support/wait-until';
import { ReceivedRequest, WebhookReceiver } from '../support/webhook-receiver';

const STATEMENT_MS = 1000;
const CONNECT_MS = 500;
/** What the service may take past a limit: pg's client-side margin and a slow CI machine. */
const SLACK_MS = 1000;
/** The pause before the LISTEN's first reconnection (delivery-notification.listener.ts). */
const FIRST_RETRY_MS = 1000;
/** Longer than any test: a worker that sends within one was woken by a notification, not its poll. */
const HOUR_MS = 3_600_000;

/** The URL the app pools, and the one its LISTEN uses (PostgreSQL itself when the run goes through PgBouncer). */
const databaseUrl = () => process.env.TEST_DATABASE_URL!;
const directUrl = () => process.env.TEST_DATABASE_DIRECT_URL ?? databaseUrl();

/** How long `promise` takes to settle, and whether it failed. */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; failed: boolean }> {
  const started = Date.now();
  const failed = await promise.then(
    () => false,
    () => true,
  );
  return { ms: Date.now() - started, failed };
}

function poolOf(app: NestExpressApplication): Pool {
  return (dataSourceOf(app).driver as PostgresDriver).master as Pool;
}

/** A retention step that, once armed, freezes the database in the middle of the job's transaction. */
@Injectable()
@RegisterRetentionStep()
class FreezingStep implements RetentionStep {
  readonly name = 'freezing probe';
  private freeze?: () => void;

  armWith(freeze: () => void): void {
    this.freeze = freeze;
  }

  async prune(_now: Date, manager: EntityManager): Promise<PruneResult> {
    const freeze = this.freeze;
    this.freeze = undefined;
    freeze?.();
    await manager.query('SELECT 1');
    return { removed: 0, more: false };
  }
}

@Module({ providers: [FreezingStep] })
class FreezingStepModule {}

// A proxy in front of a server, and a second session beside the frozen app: the one-session embedded database has neither.
describeIfPostgres('background work when the database freezes', () => {
  const certificate = testCertificate();
  const trust = TrustCertificateModule.of(certificate);
  let receiver: WebhookReceiver;
  /** Reaches the database directly, never frozen: writes and looks while the app under test waits. */
  let writer: NestExpressApplication;
  let tenant: TestTenant;
  /** In front of DATABASE_URL (the pool), and of DATABASE_DIRECT_URL (the LISTEN). */
  let pooled: TcpProxy;
  let direct: TcpProxy;
  let app: NestExpressApplication | undefined;

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
    // DISPATCH_MODE=off: it sends nothing itself and announces its commits with a NOTIFY, as API instances do.
    writer = await createTestApp({ dispatchMode: 'off' }, [trust]);
    tenant = await createTenant(writer);
  });
  beforeEach(async () => {
    pooled = await TcpProxy.forUrl(databaseUrl()).start();
    direct = await TcpProxy.forUrl(directUrl()).start();
  });
  afterEach(async () => {
    pooled.thaw();
    direct.thaw();
    await app?.close();
    app = undefined;
    await pooled.stop();
    await direct.stop();
  });
  afterAll(async () => {
    await writer.close();
    await receiver.stop();
  });

  const freeze = () => {
    pooled.freeze();
    direct.freeze();
  };
  const thaw = () => {
    pooled.thaw();
    direct.thaw();
  };

  /** The app under test, through the proxies, with short limits; it dispatches and prunes when `dispatch`. */
  const startApp = async (overrides: Parameters<typeof createTestApp>[0] = {}, dispatch = true) => {
    app = await createTestApp(
      {
        databaseUrl: pooled.urlFor(databaseUrl()),
        databaseDirectUrl: direct.urlFor(directUrl()),
        databaseTimeoutMs: CONNECT_MS,
        databaseStatementTimeoutMs: STATEMENT_MS,
        webhookPollIntervalMs: 200,
        webhookTimeoutMs: 5000,
        ...overrides,
      },
      [trust, FreezingStepModule],
      { dispatch },
    );
    return app;
  };

  async function subscribe(path: string): Promise<string> {
    const response = await apiClient(
      () => writer,
      () => tenant,
    )
      .post<{ id: string }>('/webhooks', { url: receiver.url(path), events: ['employee.created'] })
      .expect(201);
    return response.body.data.id;
  }

  /** This endpoint's deliveries as the database holds them: what a failure message needs when a send never came. */
  async function deliveryStates(endpointId: string): Promise<Array<{ outcome: string | null }>> {
    return dataSourceOf(writer).query(
      `SELECT outcome, status_code AS "statusCode", error, claimed_at AS "claimedAt", attempted_at AS "attemptedAt"
         FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at, id`,
      [endpointId],
    );
  }

  /**
   * Creates an employee and answers its delivery's request once the receiver has it. A delivery gets one attempt
   * (docs/api-decisions.md): when that attempt failed without reaching the receiver, a new employee makes a new
   * delivery, once. Anything else fails with the deliveries' state, which says whether they were claimed and how
   * they ended.
   */
  async function sendInFlight(path: string, endpointId: string): Promise<ReceivedRequest> {
    for (let attempt = 1; ; attempt++) {
      const before = receiver.on(path).length;
      await createEmployee(writer, tenant);
      try {
        return (await receiver.waitFor(path, before + 1)).at(-1)!;
      } catch (error) {
        const states = await deliveryStates(endpointId);
        if (attempt === 2 || states.at(-1)?.outcome !== 'failed') {
          throw new Error(`${(error as Error).message}; deliveries: ${JSON.stringify(states)}`);
        }
      }
    }
  }

  async function outcomes(endpointId: string): Promise<Array<string | null>> {
    const rows: Array<{ outcome: string | null }> = await dataSourceOf(writer).query(
      'SELECT outcome FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at, id',
      [endpointId],
    );
    return rows.map((row) => row.outcome);
  }

  /** The backends of this database holding the worker's LISTEN. */
  async function listeners(): Promise<number[]> {
    const rows: Array<{ pid: number }> = await dataSourceOf(writer).query(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'webhook-delivery-listener'
          AND state = 'idle' AND query LIKE 'LISTEN %'`,
    );
    return rows.map((row) => row.pid);
  }

  describe('the retention job', () => {
    /** The events of a fresh organisation's new employee, recorded (as if) 31 days ago: past the retention. */
    async function expiredEvents(): Promise<string[]> {
      const own = await createTenant(writer);
      await createEmployee(writer, own);
      const [rows]: [Array<{ id: string }>, number] = await dataSourceOf(writer).query(
        `UPDATE events SET created_at = now() - interval '31 days' WHERE organisation_id = $1 RETURNING id`,
        [own.organisationId],
      );
      return rows.map((row) => row.id);
    }

    const remaining = async (ids: string[]) =>
      (await dataSourceOf(writer).query('SELECT 1 FROM events WHERE id = ANY($1::uuid[])', [ids])).length;

    it('gives up a run the database froze in, holding no connection, and prunes once it answers', async () => {
      const expired = await expiredEvents();
      expect(expired).toHaveLength(1);
      const job = (await startApp({}, false)).get(RetentionJob);
      app!.get(FreezingStep).armWith(freeze);
      const runs = jest.spyOn(job, 'run');

      // The first run starts at once, in the background, as the server starts it; the step freezes it mid-way.
      job.start();
      const frozenRun = timed(runs.mock.results[0].value as Promise<RetentionReport>);
      const { ms, failed } = await frozenRun;
      expect(failed).toBe(true);
      expect(ms).toBeLessThan(STATEMENT_MS + SLACK_MS);
      // Its connection was discarded, not kept waiting on the frozen server nor handed back to the pool.
      expect(poolOf(app!).totalCount - poolOf(app!).idleCount).toBe(0);
      expect(await remaining(expired)).toBe(1);

      thaw();
      // The frozen session holds the lock until the server reads its end; then a run of this instance prunes.
      let report: RetentionReport = null;
      await waitUntil(async () => (report = await job.run()) !== null, 'a retention run takes the lock', {
        timeoutMs: 5000,
      });
      expect(report).toMatchObject({ events: { removed: expect.any(Number) }, 'freezing probe': { removed: 0 } });
      expect(await remaining(expired)).toBe(0);
    });
  });

  describe('the webhook dispatcher', () => {
    it('gives up recording and claiming while the database is frozen, and sends again once it answers', async () => {
      const endpointId = await subscribe('/dispatch-frozen');
      // The receiver answers late, so the send is still in flight when the database freezes.
      receiver.behave('/dispatch-frozen', { delayMs: 500 });
      const deliveries = (await startApp()).get(WebhookDeliveriesRepository);
      const settles = jest.spyOn(deliveries, 'settleMany');
      const sent = await sendInFlight('/dispatch-frozen', endpointId);
      freeze();

      // The outcome, written when the answer comes, meets the frozen database: given up at the statement limit.
      // The dispatcher serves every organisation, so other test files' deliveries may be settled before it.
      const deliveryId = sent.headers['x-service-delivery'];
      const settlingIt = () => settles.mock.calls.findIndex(([batch]) => batch.some(({ id }) => id === deliveryId));
      await waitUntil(() => settlingIt() !== -1, 'the outcome is written');
      const recording = await timed(settles.mock.results[settlingIt()].value as Promise<void>);
      expect(recording.failed).toBe(true);
      expect(recording.ms).toBeLessThan(STATEMENT_MS + SLACK_MS);
      // The poll goes on: each claim fails within its limits rather than hanging on the frozen database.
      const started = Date.now();
      await dispatcherRounds(app!, 2, 2 * (STATEMENT_MS + SLACK_MS) + 1000);
      expect(Date.now() - started).toBeLessThan(2 * (STATEMENT_MS + SLACK_MS) + 1000);

      thaw();
      const before = receiver.on('/dispatch-frozen').length;
      const employee = await createEmployee(writer, tenant);
      const received = await receiver.waitFor('/dispatch-frozen', before + 1);
      expect(JSON.parse(received[before].body.toString())).toMatchObject({ data: { id: employee.id } });
      await waitUntil(async () => (await outcomes(endpointId)).at(-1) === 'delivered', 'the delivery is recorded');
    });

    it('tries a failed claim again soon, without waiting for its poll', async () => {
      await subscribe('/claim-retried');
      // Its poll is an hour away: only the notification, then its own retries, make it claim.
      const deliveries = (await startApp({ dispatchMode: 'worker', webhookPollIntervalMs: HOUR_MS })).get(
        WebhookDeliveriesRepository,
      );
      await waitUntil(async () => (await listeners()).length === 1, 'the worker listens');
      const failedClaims: unknown[] = [];
      const claim = deliveries.claim.bind(deliveries);
      jest.spyOn(deliveries, 'claim').mockImplementation((...args) =>
        claim(...args).catch((error: unknown) => {
          failedClaims.push(error);
          throw error;
        }),
      );

      // The pool's connections are cut and new ones refused; its LISTEN, on the direct URL, still hears the commit.
      await pooled.stop();
      await createEmployee(writer, tenant);
      await waitUntil(() => failedClaims.length > 0, 'the claim the notification started fails');
      await pooled.start();
      await receiver.waitFor('/claim-retried', 1);
    });
  });

  describe('the LISTEN of a worker', () => {
    it('gives up a connection the database froze, listens on a new one once it answers, and is woken again', async () => {
      const endpointId = await subscribe('/listen-frozen');
      // Its poll is an hour away: only a notification (or listening anew) makes it look for deliveries.
      await startApp({ dispatchMode: 'worker', webhookPollIntervalMs: HOUR_MS });
      await waitUntil(async () => (await listeners()).length === 1, 'the worker listens');
      const [frozen] = await listeners();
      const connections = direct.accepted;

      freeze();
      const started = Date.now();
      // Giving up shows as a new connection, made after the first pause: while frozen, it waits to be answered.
      // The connection is checked every DATABASE_TIMEOUT_MS, and a check unanswered past the statement limit fails.
      const limit = CONNECT_MS + STATEMENT_MS + FIRST_RETRY_MS + SLACK_MS;
      await waitUntil(() => direct.accepted > connections, 'the worker connects anew', { timeoutMs: 2 * limit });
      expect(Date.now() - started).toBeLessThan(limit);
      // A commit meanwhile is announced to no one; listening anew picks it up.
      await createEmployee(writer, tenant);

      thaw();
      await waitUntil(async () => {
        const now = await listeners();
        return now.length === 1 && now[0] !== frozen;
      }, 'the worker listens on a new connection');
      await receiver.waitFor('/listen-frozen', 1);
      await waitUntil(async () => (await outcomes(endpointId)).at(-1) === 'delivered', 'the delivery is recorded');
      await createEmployee(writer, tenant);
      await receiver.waitFor('/listen-frozen', 2);
    }, 30_000);

    it('shuts down without waiting for the frozen database', async () => {
      const worker = await startApp({ dispatchMode: 'worker', webhookPollIntervalMs: HOUR_MS });
      await waitUntil(async () => (await listeners()).length === 1, 'the worker listens');
      freeze();
      const closing = await timed(worker.close());
      app = undefined;
      expect(closing.failed).toBe(false);
      // Work in flight gives up at the statement limit; the goodbye the frozen server never answers is awaited
      // for DATABASE_TIMEOUT_MS at most.
      expect(closing.ms).toBeLessThan(STATEMENT_MS + SLACK_MS);
    });
  });
});
