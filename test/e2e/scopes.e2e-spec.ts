import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiKeysService, NewApiKey } from '../../src/auth/api-keys.service';
import { API_SCOPES, ApiScope } from '../../src/auth/scopes';
import { checkedRequest } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { itWithConcurrentSessions, NEEDS_A_SERVER } from '../support/database-kind';
import { Method, operationsOf, servedDocument } from '../support/openapi-document';
import { createEmployee, createSkill } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';

/**
 * docs/api-decisions.md, "Scoped API keys" and "Data protection": the scope an operation needs, from its path and
 * method.
 */
function contractScope(method: Method, path: string): ApiScope | null {
  if (path === '/me') return null;
  if (/^\/employees\/\{id\}\/(erase|personal-data)$/.test(path)) return 'privacy';
  if (path.startsWith('/webhooks')) return 'webhooks';
  if (path.startsWith('/events')) return 'events';
  // decisions.md, "Writes that never overwrite each other": a resource's history is the feed's.
  if (/^\/(employees|skills)\/\{id\}\/history$/.test(path)) return 'events';
  // Resolving names changes nothing: a POST only for its body of up to 1,000 names.
  if (path === '/skills/resolve') return 'read';
  return method === 'get' ? 'read' : 'write';
}

const forbidden = (scope: ApiScope) => ({
  success: false,
  error: { code: 'FORBIDDEN', message: `This API key lacks the "${scope}" scope` },
});

/** A key of `organisationId` made as the command line makes it. */
async function keyOf(app: NestExpressApplication, organisationId: string, options: NewApiKey): Promise<TestTenant> {
  const created = await app.get(ApiKeysService).create(organisationId, options);
  return { organisationId, key: created.key, keyId: created.id, bearer: `Bearer ${created.key}` };
}

async function singleScopeKeys(app: NestExpressApplication, organisationId: string) {
  const entries = await Promise.all(
    API_SCOPES.map(
      async (scope) => [scope, await keyOf(app, organisationId, { scopes: [scope], name: scope })] as const,
    ),
  );
  return Object.fromEntries(entries) as Record<ApiScope, TestTenant>;
}

/** Every operation of the served document that takes a key, with its path ids filled by `idFor`. */
function keyedOperations(app: NestExpressApplication, idFor: (path: string, parameter: string) => string) {
  return operationsOf(servedDocument(app))
    .filter(({ operation, servedPath }) => operation.security?.length !== 0 && servedPath.startsWith('/api/v1/'))
    .map(({ method, path, servedPath, operation }) => ({
      method,
      path,
      operation,
      url: servedPath.replace(/\{(\w+)\}/g, (_match, parameter: string) => idFor(path, parameter)),
      hasBody: operation.requestBody !== undefined,
    }));
}

describe('scoped API keys', () => {
  const suite = useTestApp({ tenant: 'none' });
  let owner: TestTenant;
  let keys: Record<ApiScope, TestTenant>;

  beforeAll(async () => {
    owner = await createTenant(suite.app, 'Scopes');
    keys = await singleScopeKeys(suite.app, owner.organisationId);
  });

  const http = () => checkedRequest(suite.app);
  const send = (method: Method, url: string, key: TestTenant, hasBody: boolean) => {
    const call = http()[method](url).set('Authorization', key.bearer);
    return hasBody ? call.send({}) : call;
  };

  it('answers every operation of the served document × every single-scope key: 403 exactly where the route table says', async () => {
    const operations = keyedOperations(suite.app, () => randomUUID());
    expect(operations.map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(['get /employees', 'post /webhooks', 'get /events', 'get /me', 'delete /skills/{id}']),
    );
    const wrong: string[] = [];
    for (const { method, path, url, hasBody } of operations) {
      const needed = contractScope(method, path);
      for (const scope of API_SCOPES) {
        const response = await send(method, url, keys[scope], hasBody);
        const allowed = needed === null || needed === scope;
        const right = allowed
          ? response.status !== 401 && response.status !== 403 && response.status < 500
          : response.status === 403 && isDeepStrictEqual(response.body, forbidden(needed));
        if (!right) wrong.push(`${method.toUpperCase()} ${path} with ${scope}: ${response.status} ${response.text}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("says each operation's scope in the document: a sentence of its description and a 403 response", () => {
    const wrong = keyedOperations(suite.app, () => randomUUID()).flatMap(({ method, path, operation }) => {
      const needed = contractScope(method, path);
      const says = operation.description?.includes(`Requires the \`${needed}\` scope.`) ?? false;
      const lists403 = operation.responses['403'] !== undefined;
      return (needed === null ? !lists403 && !/Requires the/.test(operation.description ?? '') : says && lists403)
        ? []
        : [`${method} ${path}`];
    });
    expect(wrong).toEqual([]);
  });

  it("answers another organisation's ids 404 to every key whose scope the route needs, and 403 to the others", async () => {
    const foreign = await createTenant(suite.app, 'Foreign');
    const employee = await createEmployee(suite.app, foreign);
    const skill = await createSkill(suite.app, foreign);
    const webhook = (
      await http()
        .post('/api/v1/webhooks')
        .set('Authorization', foreign.bearer)
        .send({ url: 'https://hooks.example.com/scopes', events: ['skill.rated'] })
        .expect(201)
    ).body.data as { id: string };
    const idFor = (path: string, parameter: string): string => {
      if (parameter === 'skillId' || path.startsWith('/skills/')) return skill.id;
      if (parameter === 'id' && path.startsWith('/employees/')) return employee.id;
      if (parameter === 'id' && path.startsWith('/webhooks/')) return webhook.id;
      return randomUUID();
    };
    const withIds = keyedOperations(suite.app, idFor).filter(({ path }) => path.includes('{'));
    expect(withIds.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const { method, path, url, hasBody } of withIds) {
      const needed = contractScope(method, path);
      for (const scope of API_SCOPES) {
        const { status, body } = await send(method, url, keys[scope], hasBody);
        // A body is checked before the id is looked up: `{}` may be 400, never a success or a 403.
        const right =
          needed !== scope
            ? status === 403 && isDeepStrictEqual(body, forbidden(needed!))
            : status === 404 || (hasBody && status === 400);
        if (!right) wrong.push(`${method.toUpperCase()} ${path} with ${scope}: ${status}`);
      }
    }
    expect(wrong).toEqual([]);
    // Nothing of the other organisation moved.
    await http().get(`/api/v1/employees/${employee.id}`).set('Authorization', foreign.bearer).expect(200);
    await http().get(`/api/v1/skills/${skill.id}`).set('Authorization', foreign.bearer).expect(200);
  });

  it('answers GET /me to any valid key, whatever its scopes, with its organisation and key', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000);
    const named = await keyOf(suite.app, owner.organisationId, {
      scopes: ['events', 'read'],
      name: 'BI export',
      expiresAt,
    });
    const response = await http().get('/api/v1/me').set('Authorization', named.bearer).expect(200);
    const { body: organisation } = await http().get('/api/v1/me').set('Authorization', owner.bearer).expect(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        organisation: { id: owner.organisationId, name: organisation.data.organisation.name },
        apiKey: { id: named.keyId, name: 'BI export', scopes: ['read', 'events'], expiresAt: expiresAt.toISOString() },
      },
    });
    expect(organisation.data.organisation.name).toMatch(/^Scopes /);
    expect(organisation.data.apiKey).toEqual({
      id: owner.keyId,
      name: 'test',
      scopes: ['read', 'write', 'webhooks', 'events', 'privacy'],
      expiresAt: null,
    });
    for (const scope of API_SCOPES) {
      const { body } = await http().get('/api/v1/me').set('Authorization', keys[scope].bearer).expect(200);
      expect(body.data.apiKey).toMatchObject({ id: keys[scope].keyId, scopes: [scope] });
    }
    const other = await createTenant(suite.app, 'Other');
    const { body } = await http().get('/api/v1/me').set('Authorization', other.bearer).expect(200);
    expect(body.data.organisation.id).toBe(other.organisationId);
    await http().get('/api/v1/me').expect(401);
  });

  it('refuses a key whose expiry has passed with 401, like a revoked one, cached or not', async () => {
    const past = await keyOf(suite.app, owner.organisationId, {
      scopes: ['read'],
      expiresAt: new Date(Date.now() - 1000),
    });
    const expired = await http().get('/api/v1/employees').set('Authorization', past.bearer).expect(401);
    expect(expired.body).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: 'Missing or invalid API key' },
    });

    const expiresAt = new Date(Date.now() + 1500);
    const soon = await keyOf(suite.app, owner.organisationId, { scopes: ['read'], expiresAt });
    await http().get('/api/v1/employees').set('Authorization', soon.bearer).expect(200);
    await sleep(expiresAt.getTime() - Date.now() + 50);
    // Still within the key cache's life: the expiry is checked on every request all the same.
    await http().get('/api/v1/employees').set('Authorization', soon.bearer).expect(401);
    await http().get('/api/v1/me').set('Authorization', soon.bearer).expect(401);
  });

  it('refuses a revoked scoped key within 5 s', async () => {
    const reader = await keyOf(suite.app, owner.organisationId, { scopes: ['read'] });
    await http().get('/api/v1/employees').set('Authorization', reader.bearer).expect(200);
    await suite.app.get(ApiKeysService).revoke(reader.keyId);
    const revokedAt = Date.now();
    await waitUntil(
      async () => (await http().get('/api/v1/employees').set('Authorization', reader.bearer)).status === 401,
      'the revoked key is refused',
      { timeoutMs: 5000, intervalMs: 200 },
    );
    expect(Date.now() - revokedAt).toBeLessThan(5000);
  });

  describe('last use', () => {
    const lastUsedAt = async (keyId: string): Promise<Date | null> => {
      const [row] = await dataSourceOf(suite.app).query('SELECT last_used_at FROM api_keys WHERE id = $1', [keyId]);
      return row.last_used_at as Date | null;
    };
    const written = (keyId: string): Promise<Date> =>
      waitUntil(async () => (await lastUsedAt(keyId)) ?? undefined, 'lastUsedAt is written');

    it('moves at most once a minute: one write for two requests, and none from a second instance', async () => {
      const key = await keyOf(suite.app, owner.organisationId, { scopes: ['read'] });
      expect(await lastUsedAt(key.keyId)).toBeNull();
      const before = Date.now();
      await http().get('/api/v1/employees').set('Authorization', key.bearer).expect(200);
      const first = await written(key.keyId);
      expect(first.getTime()).toBeGreaterThanOrEqual(before - 5);

      await sleep(20);
      await http().get('/api/v1/me').set('Authorization', key.bearer).expect(200);
      await sleep(300);
      expect(await lastUsedAt(key.keyId)).toEqual(first);

      // Another instance has its own memory: the row's guard keeps it from writing again within the minute.
      const second = await createTestApp();
      try {
        await checkedRequest(second).get('/api/v1/employees').set('Authorization', key.bearer).expect(200);
        await sleep(300);
        expect(await lastUsedAt(key.keyId)).toEqual(first);
      } finally {
        await second.close();
      }
    });

    itWithConcurrentSessions(`never makes a request wait for the write ${NEEDS_A_SERVER}`, async () => {
      const key = await keyOf(suite.app, owner.organisationId, { scopes: ['read'] });
      const locker = dataSourceOf(suite.app).createQueryRunner();
      await locker.connect();
      await locker.startTransaction();
      try {
        // The write of lastUsedAt now waits for this lock; the request must not.
        await locker.query('SELECT id FROM api_keys WHERE id = $1 FOR UPDATE', [key.keyId]);
        const started = Date.now();
        await http().get('/api/v1/employees').set('Authorization', key.bearer).expect(200);
        expect(Date.now() - started).toBeLessThan(2000);
        expect(await lastUsedAt(key.keyId)).toBeNull();
      } finally {
        await locker.commitTransaction();
        await locker.release();
      }
      await written(key.keyId);
    });
  });
});

/** Sends the head of a request and only the first bytes of its body; resolves to the status once answered. */
function statusBeforeBody(port: number, head: string, firstBytes: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', reject);
    socket.write(head + firstBytes);
  });
}

describe('scoped API keys: the order of checks', () => {
  const LIMIT = 8;
  const suite = useTestApp({ config: { rateLimitPerMinute: LIMIT }, tenant: 'none' });
  let reader: TestTenant;

  beforeAll(async () => {
    const owner = await createTenant(suite.app, 'Order');
    reader = await keyOf(suite.app, owner.organisationId, { scopes: ['read'] });
  });

  const http = () => checkedRequest(suite.app);

  it('answers 401 before 403, and 403 before the body: a read key writing any body gets 403', async () => {
    const bodies: [string, string][] = [
      ['text/plain', 'hello'],
      ['application/json', '{"firstName": '],
      ['application/json', JSON.stringify({ firstName: 'x'.repeat(1024 * 1024) })],
      ['application/json', '{}'],
    ];
    for (const [type, body] of bodies) {
      const refused = await http()
        .post('/api/v1/employees')
        .set('Authorization', reader.bearer)
        .set('Content-Type', type)
        .send(body);
      expect([type, refused.status, refused.body]).toEqual([type, 403, forbidden('write')]);
      const unknown = await http()
        .post('/api/v1/employees')
        .set('Authorization', 'Bearer sk_unknown')
        .set('Content-Type', type)
        .send(body);
      expect([type, unknown.status]).toEqual([type, 401]);
    }
  });

  it('answers 403 without reading the body at all', async () => {
    const server = suite.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const head =
        'POST /api/v1/employees HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Authorization: ${reader.bearer}\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`;
      // The rest of the 2 MiB never comes: only an answer that does not wait for it arrives.
      expect(await statusBeforeBody(port, head, '{"firstName": "')).toBe(403);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('answers 429 over the rate limit before the scope', async () => {
    const limited = await keyOf(suite.app, reader.organisationId, { scopes: ['read'] });
    let status = 0;
    for (let n = 0; n < LIMIT && status !== 429; n++) {
      status = (await http().post('/api/v1/skills').set('Authorization', limited.bearer).send({})).status;
      expect([403, 429]).toContain(status);
    }
    const response = await http()
      .post('/api/v1/skills')
      .set('Authorization', limited.bearer)
      .set('Content-Type', 'text/plain')
      .send('not json');
    expect(response.status).toBe(429);
    expect(response.body.error.code).toBe('RATE_LIMITED');
  });
});
