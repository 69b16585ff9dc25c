import { NestExpressApplication } from '@nestjs/platform-express';
import { migrate } from '../../src/database/migrate';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { createEmployee, unique } from '../support/people.factory';
import { PgBouncer, startPgBouncer } from '../support/pgbouncer';
import { describeIfPgBouncer } from '../support/requirements';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(60_000);

/** Longer than any test: a worker that sends within one was woken by its LISTEN, not its poll. */
const HOUR_MS = 3_600_000;

/**
 * The service behind a real PgBouncer in transaction mode (README "Behind PgBouncer"): every pooled query
 * goes through it, DATABASE_DIRECT_URL carries what needs a session of its own. The whole suite also runs
 * this way in CI (TEST_PGBOUNCER=true, .ci/run).
 */
describeIfPgBouncer('behind PgBouncer in transaction mode', () => {
  const certificate = testCertificate();
  const trust = TrustCertificateModule.of(certificate);
  const direct = () => process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL!;
  let bouncer: PgBouncer;
  let receiver: WebhookReceiver;
  let api: NestExpressApplication;
  let worker: NestExpressApplication;
  let tenant: TestTenant;

  beforeAll(async () => {
    bouncer = await startPgBouncer(direct());
    receiver = await new WebhookReceiver(certificate).start();
    const databases = { databaseUrl: bouncer.url(direct()), databaseDirectUrl: direct() };
    api = await createTestApp({ ...databases, dispatchMode: 'off' }, [trust], { dispatch: true });
    worker = await createTestApp({ ...databases, dispatchMode: 'worker', webhookPollIntervalMs: HOUR_MS }, [trust], {
      dispatch: true,
    });
    tenant = await createTenant(api, 'Bouncer');
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await receiver?.stop();
    await bouncer?.stop();
  });

  const client = () =>
    apiClient(
      () => api,
      () => tenant,
    );

  it('serves writes, reads and lists through the pooler', async () => {
    const { url } = dataSourceOf(api).options as { url: string };
    expect(url).toBe(bouncer.url(direct()));
    const employee = await createEmployee(api, tenant, { firstName: 'Grace' });
    await client().patch(`/employees/${employee.id}`, { lastName: 'Hopper' }).expect(200);
    const read = await client().get<{ lastName: string }>(`/employees/${employee.id}`).expect(200);
    expect(read.body.data.lastName).toBe('Hopper');
    const list = await client().get<unknown[]>('/employees').expect(200);
    expect(list.body.data).toHaveLength(1);
  });

  // Issue 47: the version checks hold under a transaction pooler, and across two instances.
  describe('If-Match and Base-Version across two instances', () => {
    let second: NestExpressApplication;
    beforeAll(async () => {
      const databases = { databaseUrl: bouncer.url(direct()), databaseDirectUrl: direct() };
      second = await createTestApp({ ...databases, dispatchMode: 'off' }, [trust]);
    });
    afterAll(async () => {
      await second?.close();
    });
    const patchOn = (index: number, id: string, header: [string, string], body: object) =>
      apiClient(
        () => (index % 2 === 0 ? api : second),
        () => tenant,
      )
        .call('patch', `/employees/${id}`)
        .set(...header)
        .send(body);

    it('lets exactly one of 20 parallel PATCHes with the same ETag through', async () => {
      const employee = await createEmployee(api, tenant);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_each, index) =>
          patchOn(index, employee.id, ['If-Match', '"1"'], { title: `Title ${index}` }),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([200, ...Array<number>(19).fill(412)]);
    });

    it('applies parallel PATCHes of different fields with the same Base-Version', async () => {
      const employee = await createEmployee(api, tenant);
      const changes = [{ title: 'T' }, { gender: 'g' }, { departmentId: 'D' }, { firstName: 'F' }, { lastName: 'L' }];
      const responses = await Promise.all(
        changes.map((change, index) => patchOn(index, employee.id, ['Base-Version', '1'], change)),
      );
      expect(responses.map((response) => response.status)).toEqual(changes.map(() => 200));
      const read = await client().get<object>(`/employees/${employee.id}`).expect(200);
      expect(read.body.data).toMatchObject(Object.assign({ version: 1 + changes.length }, ...changes) as object);
    });
  });

  it('replays a POST with an Idempotency-Key (a transaction-scoped lock, no session state)', async () => {
    const id = unique('p');
    const body = { personnelNumber: id, firstName: 'Ada', lastName: 'Lovelace', businessEmail: `${id}@example.com` };
    const key = unique('key');
    const first = await client().call('post', '/employees').set('Idempotency-Key', key).send(body).expect(201);
    const again = await client().call('post', '/employees').set('Idempotency-Key', key).send(body).expect(201);
    expect(again.body).toEqual(first.body);
  });

  it('wakes a worker whose poll is an hour away: its LISTEN is on DATABASE_DIRECT_URL', async () => {
    await client()
      .post<{ id: string }>('/webhooks', { url: receiver.url('/bouncer'), events: ['employee.created'] })
      .expect(201);
    await createEmployee(api, tenant);
    const [received] = await receiver.waitFor('/bouncer', 1);
    expect(JSON.parse(received.body.toString()).event).toBe('employee.created');
  });

  it('queues instances migrating at once under the lock on the direct connection', async () => {
    expect(await Promise.all([migrate(direct()), migrate(direct()), migrate(direct())])).toEqual([[], [], []]);
    const held: unknown[] = await dataSourceOf(api).query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(held).toEqual([]);
  });
});
