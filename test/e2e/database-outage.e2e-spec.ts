import { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { checkedRequest } from '../support/api-client';
import { createTenant, createTestApp, TestTenant } from '../support/app';
import { createEmployee } from '../support/people.factory';
import { itIfPostgres } from '../support/requirements';
import { TcpProxy } from '../support/tcp-proxy';

const databaseUrl = () => process.env.TEST_DATABASE_URL!;

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
      databaseTimeoutMs: 1000,
      databaseStatementTimeoutMs: 500,
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
