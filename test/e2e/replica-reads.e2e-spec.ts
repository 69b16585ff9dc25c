import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { AppConfig } from '../../src/config/config';
import { CONSISTENCY_TOKEN_HEADER } from '../../src/database/read-routing';
import { Replicas } from '../../src/database/replicas';
import { Metrics } from '../../src/metrics/metrics';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, TestTenant } from '../support/app';
import { unique } from '../support/people.factory';
import { TestReplica, whyNoReplica } from '../support/replica';
import { waitUntil } from '../support/wait-until';

jest.setTimeout(120_000);

const noReplica = whyNoReplica();
const describeWithReplica = noReplica
  ? (name: string, body: () => void) => describe.skip(`${name} (skipped: ${noReplica})`, body)
  : describe;
if (noReplica) process.stderr.write(`skipped the read replica tests: ${noReplica}\n`);

interface Employee {
  id: string;
  firstName: string;
}

/**
 * Reads on a streaming replica (decisions.md "Reads past one primary", docs/adr/0012): a replica of this file's
 * own (scripts/replica.sh), whose replay the tests pause, and which they stop and start again.
 */
describeWithReplica('reads on a streaming replica', () => {
  let replica: TestReplica;
  const apps: NestExpressApplication[] = [];
  let tenant: TestTenant;

  /** An app reading on the replica; `maxLagMs` is DATABASE_REPLICA_MAX_LAG_MS. */
  const appOnReplica = async (overrides: Partial<AppConfig> = {}): Promise<NestExpressApplication> => {
    const app = await createTestApp({
      databaseReplicaUrls: [replica.urlFor(process.env.TEST_DATABASE_URL!)],
      ...overrides,
    });
    apps.push(app);
    // Its first check has found the replica streaming and caught up.
    await waitUntil(() => app.get(Replicas).lags()[0].seconds !== undefined, 'the replica is checked');
    return app;
  };
  const client = (app: NestExpressApplication) =>
    apiClient(
      () => app,
      () => tenant,
    );
  const reads = (app: NestExpressApplication) => ({ ...app.get(Replicas).reads });

  const post = async (app: NestExpressApplication, firstName = 'Ada') => {
    const id = unique('r');
    const response = await client(app)
      .post<Employee>('/employees', {
        personnelNumber: id,
        firstName,
        lastName: 'Lovelace',
        businessEmail: `${id}@example.com`,
      })
      .expect(201);
    return { employee: response.body.data, token: response.get(CONSISTENCY_TOKEN_HEADER) ?? '' };
  };

  let app: NestExpressApplication;

  /**
   * Waits for a GET of `path` to be read on the replica again. Its lag is measured against the whole cluster's
   * log, which the other worker's tests also write, so one check may still find it a little behind.
   */
  const readsOnTheReplicaAgain = (path: string) =>
    waitUntil(async () => {
      const before = reads(app).replica;
      await client(app).get(path).expect(200);
      return reads(app).replica === before + 1;
    }, 'a read on the replica again');

  beforeAll(async () => {
    replica = await TestReplica.start();
    app = await appOnReplica();
    tenant = await createTenant(app, 'Replica');
  });
  afterEach(async () => {
    await replica.resumeReplay().catch(() => undefined);
  });
  afterAll(async () => {
    for (const each of apps) await each.close();
    await replica?.remove();
  });

  it('sends X-Consistency-Token, a log position, with every response to a write', async () => {
    const { token } = await post(app);
    expect(token).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    const employee = (await client(app).get<Employee[]>('/employees?limit=1').expect(200)).body.data[0];
    const patched = await client(app).patch(`/employees/${employee.id}`, { firstName: 'Grace' }).expect(200);
    expect(patched.get(CONSISTENCY_TOKEN_HEADER)).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    // A refused write and a DELETE carry it too.
    const refused = await client(app).post('/employees', { firstName: 'Ada' }).expect(400);
    expect(refused.get(CONSISTENCY_TOKEN_HEADER)).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    const deleted = await client(app).del(`/employees/${employee.id}`).expect(200);
    expect(deleted.get(CONSISTENCY_TOKEN_HEADER)).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
  });

  it('looks up the API key on the primary: a key made while the replica replays nothing works at once', async () => {
    await replica.pauseReplay();
    const created = await app.get(ApiKeysService).create(tenant.organisationId, { name: 'new' });
    const before = reads(app);
    await apiClient(
      () => app,
      () => ({ ...tenant, bearer: `Bearer ${created.key}` }),
    )
      .get('/employees')
      .expect(200);
    expect(reads(app).replica).toBe(before.replica + 1);
  });

  it('answers a GET with the token of a POST with what it wrote, while the replica replays nothing', async () => {
    await replica.pauseReplay();
    for (let n = 0; n < 20; n++) {
      const { employee, token } = await post(app, `Paused${n}`);
      const read = await client(app).get<Employee>(`/employees/${employee.id}`).set(CONSISTENCY_TOKEN_HEADER, token);
      expect(read.status).toBe(200);
      expect(read.body.data.firstName).toBe(`Paused${n}`);
    }
  });

  it('reads on the replica without a token while it is within DATABASE_REPLICA_MAX_LAG_MS', async () => {
    // A limit no pause in this test reaches: the replica stays in use, and shows what it has replayed.
    const patient = await appOnReplica({ databaseReplicaMaxLagMs: 600_000 });
    await replica.pauseReplay();
    const { employee, token } = await post(patient);
    const before = reads(patient);
    await client(patient).get(`/employees/${employee.id}`).expect(404);
    expect(reads(patient).replica).toBe(before.replica + 1);
    // With the token, the primary answers.
    await client(patient).get(`/employees/${employee.id}`).set(CONSISTENCY_TOKEN_HEADER, token).expect(200);
    expect(reads(patient).primary).toBe(before.primary + 1);
    await replica.resumeReplay();
    await waitUntil(async () => (await client(patient).get(`/employees/${employee.id}`)).status === 200, 'replayed');
  });

  it('reads on the primary within 5 s of the replica falling behind past the limit', async () => {
    await replica.pauseReplay();
    const { employee } = await post(app);
    await waitUntil(
      async () => (await client(app).get(`/employees/${employee.id}`)).status === 200,
      'a read without a token finds the new employee on the primary',
      { timeoutMs: 5000 },
    );
    await replica.resumeReplay();
    // Caught up again, the replica is taken back.
    await readsOnTheReplicaAgain(`/employees/${employee.id}`);
  });

  it('answers 1,000 reads without a 5xx while the replica is stopped, and reads on it again once it is back', async () => {
    const { employee } = await post(app);
    await waitUntil(async () => (await client(app).get(`/employees/${employee.id}`)).status === 200, 'replayed');
    await replica.stop();
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 100; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => client(app).get(batch % 2 ? `/employees/${employee.id}` : '/employees')),
      );
      for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 1000 });
    expect(app.get(Replicas).lags()[0].seconds).toBeUndefined();
    // Readiness follows the primary only.
    await apiClient(() => app, undefined, { prefix: '' })
      .get('/health/ready')
      .expect(200);

    await replica.restart();
    await readsOnTheReplicaAgain(`/employees/${employee.id}`);
  });

  it('exports the lag of each replica and the reads by target', async () => {
    await client(app).get('/employees').expect(200);
    const text = await app.get(Metrics).registry.metrics();
    expect(text).toMatch(new RegExp(`^db_replica_lag_seconds\\{replica="127.0.0.1:${replica.port}/[^"]+"\\} \\d`, 'm'));
    expect(text).toMatch(/^db_reads_total\{target="replica"\} [1-9]/m);
    expect(text).toMatch(/^db_reads_total\{target="primary"\} \d/m);
    expect(text).toMatch(/^db_replica_fallbacks_total \d/m);
  });

  // The feed's cursor is an event's id: a replica that has not replayed the event a reader's last page (from the
  // primary) ended on cannot find it, and would answer 400. So GET /events stays on the primary (docs/adr/0012).
  it('keeps GET /events on the primary, where every cursor is found', async () => {
    const own = await createTenant(app, 'Feed');
    const onReplica = await appOnReplica({ databaseReplicaMaxLagMs: 600_000 });
    const feed = apiClient(
      () => onReplica,
      () => own,
    );
    await replica.pauseReplay();
    const before = reads(onReplica);
    const { id } = (
      await feed.post<Employee>('/employees', {
        personnelNumber: unique('f'),
        firstName: 'Feed',
        lastName: 'Reader',
        businessEmail: `${unique('f')}@example.com`,
      })
    ).body.data;
    const listed = await waitUntil(async () => {
      const page = (await feed.get<Array<{ id: string; data: { id: string } }>>('/events').expect(200)).body.data;
      return page.find((event) => event.data.id === id);
    }, 'the feed lists the new employee');
    // The replica has not replayed the event, yet a page after it is found.
    await feed.get(`/events?after=${listed.id}`).expect(200);
    expect(reads(onReplica).replica).toBe(before.replica);
  });

  it('runs on a standby what the feed would need there: pg_current_snapshot, but not pg_current_xact_id', async () => {
    const [{ xmin }] = await replica.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin');
    expect(BigInt(xmin)).toBeGreaterThan(0n);
    await expect(replica.query('SELECT pg_current_xact_id()')).rejects.toMatchObject({ code: '25006' });
  });
});
