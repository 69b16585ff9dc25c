import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, TEST_SERVICE_SECRET_KEY, TestTenant } from '../support/app';
import { ProbeModule } from '../support/probe.module';
import { describeIfPostgres } from '../support/requirements';
import { ServerProcess, startServer } from '../support/server-process';
import { waitUntil } from '../support/wait-until';

jest.setTimeout(90_000);

/**
 * What each request still gets now that its pipeline is one middleware (request id, access log,
 * Connection on stop) and no ETag or X-Powered-By is made: every field docs/api-decisions.md asks of the access
 * log, for answers from the route, the key guard, the body check and the rate limit alike.
 */
describeIfPostgres('per-request pipeline of the built server', () => {
  const RATE_LIMIT = 4;
  let server: ServerProcess;
  let tenant: TestTenant;

  beforeAll(async () => {
    const app = await createTestApp();
    tenant = await createTenant(app, 'Tax');
    await app.close();
    server = await startServer({
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      LOG_FORMAT: 'json',
    });
  });
  afterAll(() => server?.stop());

  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
  const withKey = (requestId: string) => ({ Authorization: tenant.bearer, 'X-Request-Id': requestId });

  /** The access log line of a request, once the server has written it. */
  async function accessLine(requestId: string): Promise<Record<string, unknown>> {
    const line = await waitUntil(
      () =>
        server
          .stdout()
          .split('\n')
          .find((entry) => entry.includes(`"id":"${requestId}"`)),
      `the server logs ${requestId}`,
      { timeoutMs: 5000 },
    );
    return JSON.parse(line) as Record<string, unknown>;
  }

  const expectedLine = (requestId: string, method: string, path: string, status: number) => ({
    level: 30,
    req: { id: requestId, method, path },
    res: { statusCode: status },
    responseTime: expect.any(Number),
    msg: expect.stringMatching(new RegExp(`^${method} ${path} ${status} \\d+ms$`)),
  });

  it('answers 200 without ETag or X-Powered-By, and logs id, method, path (no query), status and duration', async () => {
    const response = await fetch(url('/api/v1/employees?limit=1'), { headers: withKey('tax-200') });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('tax-200');
    expect(response.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT));
    expect(response.headers.has('etag')).toBe(false);
    expect(response.headers.has('x-powered-by')).toBe(false);
    expect(await accessLine('tax-200')).toEqual(
      expect.objectContaining(expectedLine('tax-200', 'GET', '/api/v1/employees', 200)),
    );
  });

  it('logs a 401 of the key guard, whose answer carries the request id and the rate-limit headers', async () => {
    const response = await fetch(url('/api/v1/employees'), { headers: { 'X-Request-Id': 'tax-401' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toBe('tax-401');
    expect(response.headers.has('x-ratelimit-remaining')).toBe(true);
    expect(response.headers.has('x-powered-by')).toBe(false);
    expect(await accessLine('tax-401')).toEqual(
      expect.objectContaining(expectedLine('tax-401', 'GET', '/api/v1/employees', 401)),
    );
  });

  it('logs a 413 of the body check', async () => {
    const response = await fetch(url('/api/v1/employees'), {
      method: 'POST',
      headers: { ...withKey('tax-413'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ firstName: 'x'.repeat(1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('x-request-id')).toBe('tax-413');
    expect(await accessLine('tax-413')).toEqual(
      expect.objectContaining(expectedLine('tax-413', 'POST', '/api/v1/employees', 413)),
    );
  });

  it('logs a 429 of the rate limit, whose answer carries the request id, X-RateLimit-* and Retry-After', async () => {
    let refused: Response | undefined;
    for (let attempt = 0; attempt <= RATE_LIMIT && !refused; attempt += 1) {
      const response = await fetch(url('/api/v1/employees'), { headers: withKey(`tax-429-${attempt}`) });
      if (response.status === 429) refused = response;
      else await response.arrayBuffer();
    }
    expect(refused).toBeDefined();
    const requestId = refused!.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^tax-429-\d$/);
    expect(refused!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused!.headers.has('retry-after')).toBe(true);
    expect(await accessLine(requestId)).toEqual(
      expect.objectContaining(expectedLine(requestId, 'GET', '/api/v1/employees', 429)),
    );
  });

  it('gives a request without a usable X-Request-Id a new one, in the answer and the log', async () => {
    const response = await fetch(url('/health/live'), { headers: { 'X-Request-Id': 'not a valid id' } });
    const requestId = response.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await accessLine(requestId)).toEqual(
      expect.objectContaining(expectedLine(requestId, 'GET', '/health/live', 200)),
    );
  });
});

describeIfPostgres('the 5xx log line', () => {
  let app: NestExpressApplication;
  let tenant: TestTenant;
  beforeAll(async () => {
    app = await createTestApp({}, [ProbeModule]);
    tenant = await createTenant(app);
  });
  afterAll(() => app.close());

  it('names the request, as the access log does, without a per-request logger to carry it', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const api = apiClient(
        () => app,
        () => tenant,
      );
      await api.get('/probe/crash?x=1').set('X-Request-Id', 'tax-500').expect(500);
      expect(logged).toHaveBeenCalledWith(
        expect.objectContaining({
          req: { id: 'tax-500', method: 'GET', path: '/api/v1/probe/crash' },
          msg: expect.stringContaining('secret_table'),
        }),
      );
    } finally {
      logged.mockRestore();
    }
  });
});
