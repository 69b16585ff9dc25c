import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkedRequest } from '../support/api-client';
import { createTenant, TestTenant } from '../support/app';
import { createEmployee, createSkill } from '../support/people.factory';
import { rawRequest } from '../support/raw-http';
import { useTestApp } from '../support/use-test-app';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

function nestedJson(depth: number): string {
  return `{"name":"x","extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
}

describe('request input: client input never causes a 500', () => {
  const suite = useTestApp({ tenant: 'none' });
  let tenant: TestTenant;
  let port: number;

  beforeAll(async () => {
    tenant = await createTenant(suite.app);
    const server: Server = suite.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  const http = () => checkedRequest(suite.app);
  const post = (path: string) => http().post(`/api/v1${path}`).set('Authorization', tenant.bearer);

  describe('U+0000 and unpaired surrogates are 400 naming the field', () => {
    it('refuses U+0000 in a stored string', async () => {
      const response = await post('/skills').send({ name: 'a\u0000b' }).expect(400);
      expect(response.body.error).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'name must not contain the character U+0000',
        details: [{ field: 'name', message: 'name must not contain the character U+0000' }],
      });
    });

    it('refuses U+0000 in a text filter', async () => {
      const response = await http().get('/api/v1/skills?search=%00').set('Authorization', tenant.bearer).expect(400);
      expect(response.body.error.details).toEqual([
        { field: 'search', message: 'search must not contain the character U+0000' },
      ]);
      await http().get('/api/v1/employees?search=a%00').set('Authorization', tenant.bearer).expect(400);
    });

    it('refuses an unpaired surrogate in businessEmail', async () => {
      const response = await post('/employees')
        .set('Content-Type', 'application/json')
        .send('{"personnelNumber":"P1","firstName":"A","lastName":"B","businessEmail":"a\\ud800@example.com"}')
        .expect(400);
      expect(response.body.error.details[0].field).toBe('businessEmail');
    });

    it('refuses an unpaired surrogate anywhere, nested fields named by their path', async () => {
      const response = await post('/webhooks')
        .set('Content-Type', 'application/json')
        .send('{"url":"https://example.com/h","events":["employee.created","\\udc00"]}')
        .expect(400);
      expect(response.body.error.details[0].field).toBe('events[1]');
    });

    it('keeps well-formed characters outside the basic plane', async () => {
      const skill = await createSkill(suite.app, tenant, { name: `Emoji 😀 ${Date.now()}` });
      expect(skill.name).toContain('😀');
    });

    it('answers a path id holding U+0000 with 404, like any malformed id', async () => {
      await http().get('/api/v1/employees/%00').set('Authorization', tenant.bearer).expect(404);
    });
  });

  describe('JSON nesting', () => {
    it('refuses a body nested deeper than 32 levels, even in an unknown field', async () => {
      const response = await post('/skills').set('Content-Type', 'application/json').send(nestedJson(2000)).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.message).toMatch(/nested deeper than 32 levels/);
    });

    it('lets 32 levels through to validation, which names the unknown field', async () => {
      const response = await post('/skills').set('Content-Type', 'application/json').send(nestedJson(31)).expect(400);
      expect(response.body.error.details).toEqual([{ field: 'extra', message: 'property extra should not exist' }]);
    });
  });

  describe('pagination bounds', () => {
    it.each(['99999999999999999999', '4611686018427387904', '9007199254740992', '1e3'])(
      'refuses page=%s with 400 on every paginated list',
      async (page) => {
        const employee = await createEmployee(suite.app, tenant);
        for (const path of ['/employees', '/skills', '/positions', `/employees/${employee.id}/ratings`]) {
          const response = await http().get(`/api/v1${path}?page=${page}`).set('Authorization', tenant.bearer);
          expect(response.status).toBe(400);
          expect(response.body.error.details[0].field).toBe('page');
        }
      },
    );

    it('answers the largest page, 2^53 − 1, with an empty page', async () => {
      const response = await http()
        .get('/api/v1/employees?page=9007199254740991&limit=100')
        .set('Authorization', tenant.bearer)
        .expect(200);
      expect(response.body.data).toEqual([]);
      expect(response.body.meta.page).toBe(9007199254740991);
    });
  });

  describe('unknown body fields named like object members', () => {
    it.each(['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', 'isAdmin'])(
      'refuses %s like any unknown field',
      async (field) => {
        const response = await post('/skills')
          .set('Content-Type', 'application/json')
          .send(`{"name":"Skill ${field} ${Date.now()}","${field}":{"x":1}}`)
          .expect(400);
        expect(response.body.error.details).toEqual([{ field, message: `property ${field} should not exist` }]);
      },
    );

    it('refuses them in the query string too', async () => {
      const response = await http().get('/api/v1/skills?constructor=x').set('Authorization', tenant.bearer).expect(400);
      expect(response.body.error.details[0].field).toBe('constructor');
    });
  });

  describe('errors of the HTTP layer carry the envelope', () => {
    it('answers headers over 16 KB with 431 and the envelope', async () => {
      const response = await rawRequest(
        port,
        `GET /api/v1/skills HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(response.status).toBe(431);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.headers['x-request-id']).toBeDefined();
      expect(JSON.parse(response.body)).toEqual({
        success: false,
        error: { message: 'Request header fields too large', code: 'VALIDATION_ERROR' },
      });
    });

    it('answers 2,000 headers, more than Node keeps, with the envelope and no 5xx', async () => {
      const headers = Array.from({ length: 2000 }, (_, n) => `X-H${n}: v\r\n`).join('');
      const response = await rawRequest(
        port,
        `GET /api/v1/skills HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`,
      );
      expect(response.status).toBeLessThan(500);
      expect(JSON.parse(response.body).success).toBe(false);
    });

    it('answers a malformed request line with 400 and the envelope', async () => {
      const response = await rawRequest(port, 'GARBAGE\r\n\r\n');
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({
        success: false,
        error: { message: 'Malformed HTTP request', code: 'VALIDATION_ERROR' },
      });
    });
  });
});

describe('request input: the order of checks', () => {
  const LIMIT = 10;
  const suite = useTestApp({ config: { rateLimitPerMinute: LIMIT }, tenant: 'none' });

  const http = () => checkedRequest(suite.app);

  it('answers 401 without a key whatever the body: before 415, 400 and 413', async () => {
    const bodies: [string, string][] = [
      ['text/plain', 'hello'],
      ['application/json', '{"name": '],
      ['application/json', JSON.stringify({ name: 'x'.repeat(1024 * 1024) })],
    ];
    for (const [type, body] of bodies) {
      const response = await http()
        .post('/api/v1/employees')
        .set('X-Forwarded-For', '203.0.113.1')
        .set('Content-Type', type)
        .send(body);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHORIZED');
      for (const header of ['x-request-id', ...RATE_LIMIT_HEADERS]) expect(response.headers[header]).toBeDefined();
    }
  });

  it('answers 429 over the limit before looking at the body', async () => {
    const other = await createTenant(suite.app);
    for (let n = 0; n < LIMIT; n++) {
      await http().get('/api/v1/skills').set('Authorization', other.bearer).expect(200);
    }
    const response = await http()
      .post('/api/v1/skills')
      .set('Authorization', other.bearer)
      .set('Content-Type', 'text/plain')
      .send('not json');
    expect(response.status).toBe(429);
    expect(response.body.error.code).toBe('RATE_LIMITED');
    for (const header of ['x-request-id', 'retry-after', ...RATE_LIMIT_HEADERS]) {
      expect(response.headers[header]).toBeDefined();
    }
  });

  it('answers an unknown path 404 with or without a key, after the rate limit, with the headers', async () => {
    const other = await createTenant(suite.app);
    for (const authorization of [other.bearer, undefined, 'Bearer nope']) {
      const call = http().get('/api/v1/no-such-thing');
      if (authorization) call.set('Authorization', authorization);
      const response = await call.set('X-Forwarded-For', '203.0.113.2');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, error: { message: expect.any(String), code: 'NOT_FOUND' } });
      for (const header of ['x-request-id', ...RATE_LIMIT_HEADERS]) expect(response.headers[header]).toBeDefined();
    }
  });

  it('puts the request id and rate-limit headers on body errors once the key is valid', async () => {
    const other = await createTenant(suite.app);
    const response = await http()
      .post('/api/v1/skills')
      .set('Authorization', other.bearer)
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(response.status).toBe(400);
    for (const header of ['x-request-id', ...RATE_LIMIT_HEADERS]) expect(response.headers[header]).toBeDefined();
  });

  it('points GET / and GET /api/v1 at the documentation', async () => {
    for (const path of ['/', '/api/v1']) {
      const response = await http().get(path);
      expect([path, response.status, response.body]).toEqual([path, 200, expect.anything()]);
      expect(response.body).toEqual({
        success: true,
        data: { docs: '/api/v1/docs', openapi: '/api/v1/openapi.json' },
      });
    }
  });
});
