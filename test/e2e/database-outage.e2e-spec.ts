import { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { checkedRequest } from '../support/api-client';
import { createTenant, createTestApp, TestTenant } from '../support/app';
import { onEmbeddedDatabase } from '../support/database-kind';
import { createEmployee } from '../support/people.factory';
import { itIfPostgres } from '../support/requirements';
import { TcpProxy } from '../support/tcp-proxy';

const databaseUrl = () => process.env.TEST_DATABASE_URL!;

/**
 * The run's process serves every worker's embedded database on one thread, so there a statement can wait seconds
 * behind another worker's: its limits are wider, or a healthy request would time out before the test begins.
 */
const limitMs = (onServer: number) => (onEmbeddedDatabase() ? onServer * 4 : onServer);

function expectUnavailable(response: Response): void {
  expect(response.status).toBe(503);
  expect(response.body).toEqual({
    success: false,
    error: { message: expect.any(String), code: 'SERVICE_UNAVAILABLE' },
  });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.headers['x-request-id']).toBeDefined();
}

describe('database outages answer 503 and heal', () => {
  let proxy: TcpProxy;
  let app: NestExpressApplication;
  let tenant: TestTenant;

  beforeAll(async () => {
    proxy = await TcpProxy.forUrl(databaseUrl()).start();
    app = await createTestApp({
      databaseUrl: proxy.urlFor(databaseUrl()),
      databaseTimeoutMs: limitMs(1000),
      databaseStatementTimeoutMs: limitMs(500),
    });
    tenant = await createTenant(app);
  });
  afterAll(async () => {
    proxy.thaw();
    await proxy.start();
    await app.close();
    await proxy.stop();
  });

  const get = (path: string) => checkedRequest(app).get(path).set('Authorization', tenant.bearer);

  it('answers 503 with Retry-After while the database is stopped, and recovers by itself', async () => {
    await get('/api/v1/employees').expect(200);
    await proxy.stop();
    expectUnavailable(await get('/api/v1/employees'));
    expectUnavailable(await get('/api/v1/skills?search=x'));
    expect((await checkedRequest(app).get('/health/ready')).status).toBe(503);

    await proxy.start();
    await get('/api/v1/employees').expect(200);
    expect((await checkedRequest(app).get('/health/ready')).status).toBe(200);
  });

  it('answers 503 within the time limits while the database hangs, and recovers once it answers', async () => {
    await get('/api/v1/employees').expect(200);
    proxy.freeze();
    const started = Date.now();
    const responses = await Promise.all([get('/api/v1/employees'), get('/api/v1/skills'), get('/api/v1/positions')]);
    responses.forEach(expectUnavailable);
    // Bounded by the statement limit (plus the client's margin) or the wait for a connection, never a hang.
    expect(Date.now() - started).toBeLessThan(10_000);

    proxy.thaw();
    await get('/api/v1/employees').expect(200);
  });
});

describe('a statement past DATABASE_STATEMENT_TIMEOUT_MS answers 503', () => {
  let app: NestExpressApplication;
  let tenant: TestTenant;

  beforeAll(async () => {
    app = await createTestApp({ databaseStatementTimeoutMs: 300 });
    tenant = await createTenant(app);
  });
  afterAll(() => app.close());

  // The embedded database has no statement_timeout of its own and one session, so no lock can wait there.
  itIfPostgres('gives up waiting on a row lock held by another connection', async () => {
    const employee = await createEmployee(app, tenant);
    const holder = new Client({ connectionString: databaseUrl() });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM employees WHERE id = $1 FOR UPDATE', [employee.id]);
      const patch = () =>
        checkedRequest(app)
          .patch(`/api/v1/employees/${employee.id}`)
          .set('Authorization', tenant.bearer)
          .send({ title: 'Locked out' });
      expectUnavailable(await patch());
      await holder.query('ROLLBACK');
      const done = await patch().expect(200);
      expect(done.body.data.title).toBe('Locked out');
    } finally {
      await holder.end();
    }
  });
});

describe('requests in flight when the database freezes', () => {
  const STATEMENT_MS = 1500;
  const CONNECT_MS = 500;
  const FREEZE_MS = 6000;
  // A request in flight may send its next statement just after the freeze, on an event loop the other Jest worker
  // and the database slow down (CI saw 2.65 s); the freeze lasts 6 s, so the bound still tells a timeout from a hang.
  const LOADED_MACHINE_SLACK_MS = 2000;
  // The embedded database's thread also serves the other worker: a timer there can fire late.
  const sharedThreadSlackMs = onEmbeddedDatabase() ? 1000 : 0;
  let proxy: TcpProxy;
  let app: NestExpressApplication;
  let tenant: TestTenant;

  beforeAll(async () => {
    proxy = await TcpProxy.forUrl(databaseUrl()).start();
    app = await createTestApp({
      databaseUrl: proxy.urlFor(databaseUrl()),
      databaseTimeoutMs: CONNECT_MS,
      databaseStatementTimeoutMs: STATEMENT_MS,
    });
    tenant = await createTenant(app);
  });
  afterAll(async () => {
    proxy.thaw();
    await app.close();
    await proxy.stop();
  });

  const timed = async (request: PromiseLike<Response>) => {
    const started = Date.now();
    const response = await request;
    return { status: response.status, ms: Date.now() - started, response };
  };

  it('answer 503 within DATABASE_STATEMENT_TIMEOUT_MS + 2 s; their connections are discarded, and it heals', async () => {
    const employee = await createEmployee(app, tenant);
    const read = () => checkedRequest(app).get(`/api/v1/employees/${employee.id}`).set('Authorization', tenant.bearer);
    const write = (n: number) => {
      const id = `freeze-${n}-${Date.now()}`;
      return checkedRequest(app)
        .post('/api/v1/employees')
        .set('Authorization', tenant.bearer)
        .send({ personnelNumber: id, firstName: 'F', lastName: 'Z', businessEmail: `${id}@example.com` });
    };
    // Every pooled connection open (the test pool has 4), so requests in flight hold connections, not waits.
    await Promise.all([read(), read(), write(0), write(1)]);
    const inFlight = [timed(read()), timed(write(2)), timed(read()), timed(write(3))];
    await new Promise((resolve) => setTimeout(resolve, 3));
    proxy.freeze();
    const thawing = new Promise((resolve) => setTimeout(resolve, FREEZE_MS)).then(() => proxy.thaw());
    const results = await Promise.all(inFlight);
    expect(results.filter(({ status }) => status === 503).length).toBeGreaterThan(0);
    for (const { status, ms, response } of results) {
      expect(ms).toBeLessThan(STATEMENT_MS + LOADED_MACHINE_SLACK_MS + sharedThreadSlackMs);
      if (status !== 200 && status !== 201) expectUnavailable(response);
    }
    // Still frozen: a new request gets a new connection, which cannot connect, rather than a timed-out one.
    const late = await timed(read());
    expectUnavailable(late.response);
    expect(late.ms).toBeLessThan(CONNECT_MS + LOADED_MACHINE_SLACK_MS + sharedThreadSlackMs);

    await thawing;
    await read().expect(200);
    expect((await timed(write(9))).status).toBe(201);
  }, 30_000);
});
