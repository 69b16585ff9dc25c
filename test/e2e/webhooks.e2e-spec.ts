import { NestExpressApplication } from '@nestjs/platform-express';
import { openSecret } from '../../src/encryption/secret-box';
import { apiClient, checkedRequest } from '../support/api-client';
import { TEST_SERVICE_SECRET_KEY, createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { useTestApp } from '../support/use-test-app';
import { verifySignatures, WebhookReceiver } from '../support/webhook-receiver';

/** The key webhook secrets are sealed with: the service secret itself, as the previous release opens them. */
const webhookSealingKey = () => Buffer.from(TEST_SERVICE_SECRET_KEY, 'hex');

const EVENTS = ['employee.created', 'employee.updated', 'employee.deactivated', 'skill.rated', 'position.updated'];

describe('webhooks: endpoint API', () => {
  const certificate = testCertificate();
  const suite = useTestApp({ imports: [TrustCertificateModule.of(certificate)], tenant: 'once' });
  let receiver: WebhookReceiver;
  let other: TestTenant;

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
    other = await createTenant(suite.app);
  });
  afterAll(async () => {
    await receiver.stop();
  });

  const http = () => checkedRequest(suite.app);
  const as = (who: TestTenant) =>
    apiClient(
      () => suite.app,
      () => who,
    );
  const create = (who: TestTenant, body: object) => as(who).post('/webhooks', body);

  describe('POST /webhooks', () => {
    it('registers an endpoint and answers 201 with id, url, events, createdAt and version only', async () => {
      const response = await create(suite.tenant, {
        url: 'https://hooks.example.com/skills?x=1',
        events: ['employee.created', 'skill.rated'],
        secret: 'top-secret-value',
      }).expect(201);
      expect(response.body).toEqual({
        success: true,
        data: {
          id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
          url: 'https://hooks.example.com/skills?x=1',
          events: ['employee.created', 'skill.rated'],
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          version: 1,
        },
      });
      expect(response.headers.etag).toBe('"1"');
      expect(JSON.stringify(response.body)).not.toContain('top-secret-value');
    });

    it('accepts every known event, and no secret', async () => {
      const response = await create(suite.tenant, { url: 'https://hooks.example.com/all', events: EVENTS }).expect(201);
      expect(response.body.data.events).toEqual(EVENTS);
    });

    it('stores the secret encrypted with the service key, bound to the endpoint', async () => {
      const { body } = await create(suite.tenant, {
        url: 'https://hooks.example.com/sealed',
        events: ['skill.rated'],
        secret: 'sealed-secret-value',
      }).expect(201);
      const [row] = await dataSourceOf(suite.app).query(`SELECT secret_sealed FROM webhook_endpoints WHERE id = $1`, [
        body.data.id,
      ]);
      const sealed: Buffer = row.secret_sealed;
      expect(sealed.includes(Buffer.from('sealed-secret-value'))).toBe(false);
      expect(openSecret(webhookSealingKey(), sealed, body.data.id)).toBe('sealed-secret-value');
    });

    it.each([
      ['an http url', { url: 'http://hooks.example.com/x', events: ['skill.rated'] }, 'url'],
      ['a relative url', { url: '/hooks', events: ['skill.rated'] }, 'url'],
      ['a url that is not a url', { url: 'https//nope', events: ['skill.rated'] }, 'url'],
      ['a url with user info', { url: 'https://user:pass@hooks.example.com/', events: ['skill.rated'] }, 'url'],
      ['a url with a user name only', { url: 'https://user@hooks.example.com/', events: ['skill.rated'] }, 'url'],
      ['a url with spaces', { url: 'https://hooks.example.com/a b', events: ['skill.rated'] }, 'url'],
      ['a url with a line break', { url: 'https://hooks.exa\nmple.com/', events: ['skill.rated'] }, 'url'],
      [
        'a url over 2048 characters',
        { url: `https://hooks.example.com/${'a'.repeat(2024)}`, events: ['skill.rated'] },
        'url',
      ],
      ['a missing url', { events: ['skill.rated'] }, 'url'],
      ['a url that is not a string', { url: 42, events: ['skill.rated'] }, 'url'],
      ['an empty events array', { url: 'https://hooks.example.com/', events: [] }, 'events'],
      ['missing events', { url: 'https://hooks.example.com/' }, 'events'],
      ['events that are not an array', { url: 'https://hooks.example.com/', events: 'skill.rated' }, 'events'],
      [
        'an unknown event',
        { url: 'https://hooks.example.com/', events: ['skill.rated', 'employee.deleted'] },
        'events',
      ],
      ['a repeated event', { url: 'https://hooks.example.com/', events: ['skill.rated', 'skill.rated'] }, 'events'],
      [
        'a secret over 256 characters',
        { url: 'https://hooks.example.com/', events: ['skill.rated'], secret: 's'.repeat(257) },
        'secret',
      ],
      [
        'a secret that is not a string',
        { url: 'https://hooks.example.com/', events: ['skill.rated'], secret: 12345 },
        'secret',
      ],
      ['an unknown field', { url: 'https://hooks.example.com/', events: ['skill.rated'], active: true }, 'active'],
    ])('rejects %s with 400', async (_case, body, field) => {
      const response = await create(suite.tenant, body).expect(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details).toEqual([expect.objectContaining({ field })]);
    });

    it('accepts a url of exactly 2048 characters and a secret of exactly 256', async () => {
      const url = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
      const response = await create(suite.tenant, { url, events: ['skill.rated'], secret: 's'.repeat(256) }).expect(
        201,
      );
      expect(response.body.data.url).toBe(url);
    });

    it('allows 25 endpoints per organisation and refuses the 26th with 409 CONFLICT', async () => {
      const crowded = await createTenant(suite.app);
      await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          create(crowded, { url: `https://hooks.example.com/${i}`, events: ['skill.rated'] }).expect(201),
        ),
      );
      const response = await create(crowded, { url: 'https://hooks.example.com/26', events: ['skill.rated'] }).expect(
        409,
      );
      expect(response.body).toEqual({ success: false, error: { message: expect.any(String), code: 'CONFLICT' } });
      // Another organisation is not affected by this one's limit.
      await create(other, { url: 'https://hooks.example.com/other', events: ['skill.rated'] }).expect(201);
    });

    it('holds the limit when many creations race', async () => {
      const racing = await createTenant(suite.app);
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          create(racing, { url: `https://hooks.example.com/${i}`, events: ['skill.rated'] }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((status) => status === 201)).toHaveLength(25);
      expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    });
  });

  describe('GET /webhooks', () => {
    it("lists only the organisation's endpoints, oldest first, without pagination or secrets", async () => {
      const own = await createTenant(suite.app);
      const created = [];
      for (const path of ['a', 'b', 'c']) {
        created.push(
          (
            await create(own, {
              url: `https://hooks.example.com/${path}`,
              events: ['skill.rated'],
              secret: 'hidden-secret',
            })
          ).body.data,
        );
      }
      await create(other, { url: 'https://hooks.example.com/foreign', events: ['skill.rated'] }).expect(201);
      const response = await as(own).get('/webhooks').expect(200);
      expect(response.body).toEqual({ success: true, data: created });
      expect(JSON.stringify(response.body)).not.toContain('hidden-secret');
    });

    it('is an empty list for an organisation without endpoints', async () => {
      const empty = await createTenant(suite.app);
      const response = await as(empty).get('/webhooks').expect(200);
      expect(response.body).toEqual({ success: true, data: [] });
    });
  });

  describe('DELETE /webhooks/{id}', () => {
    it('deletes an endpoint of the organisation', async () => {
      const own = await createTenant(suite.app);
      const { body } = await create(own, { url: 'https://hooks.example.com/gone', events: ['skill.rated'] });
      const response = await as(own).del(`/webhooks/${body.data.id}`).expect(200);
      expect(response.body).toEqual({ success: true, data: { deleted: true } });
      const list = await as(own).get('/webhooks');
      expect(list.body.data).toEqual([]);
      await as(own).del(`/webhooks/${body.data.id}`).expect(404);
    });

    it("answers 404 for another organisation's endpoint and leaves it in place", async () => {
      const { body } = await create(other, { url: 'https://hooks.example.com/theirs', events: ['skill.rated'] });
      const response = await as(suite.tenant).del(`/webhooks/${body.data.id}`).expect(404);
      expect(response.body).toEqual({ success: false, error: { message: 'Webhook not found', code: 'NOT_FOUND' } });
      const list = await as(other).get('/webhooks');
      expect(list.body.data.map((endpoint: { id: string }) => endpoint.id)).toContain(body.data.id);
    });

    it.each(['not-a-uuid', '123', '0199a000-0000-7000-8000-00000000000g'])(
      'answers 404 for the malformed id %s',
      async (id) => {
        const response = await as(suite.tenant).del(`/webhooks/${id}`).expect(404);
        expect(response.body.error.code).toBe('NOT_FOUND');
      },
    );

    it('answers 404 for an unknown well-formed id', async () => {
      await as(suite.tenant).del('/webhooks/0199a000-0000-7000-8000-000000000000').expect(404);
    });
  });

  describe('POST /webhooks/{id}/test and GET /webhooks/{id}/deliveries (extensions)', () => {
    it('sends a signed webhook.test delivery at once, answers with its outcome and logs it', async () => {
      const own = await createTenant(suite.app);
      const { body } = await create(own, {
        url: receiver.url('/test-ok'),
        events: ['skill.rated'],
        secret: 'test-secret',
      });
      const response = await as(own).post(`/webhooks/${body.data.id}/test`, {}).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          deliveryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          event: 'webhook.test',
          status: 'delivered',
          statusCode: 200,
          error: null,
          durationMs: expect.any(Number),
          createdAt: expect.any(String),
          attemptedAt: expect.any(String),
          redeliveryOf: null,
        },
      });
      expect(response.body.data.eventId).not.toBe(response.body.data.deliveryId);

      const [received] = receiver.on('/test-ok');
      expect(received.headers['x-service-event']).toBe('webhook.test');
      expect(received.headers['x-service-delivery']).toBe(response.body.data.deliveryId);
      expect(received.headers['webhook-id']).toBe(response.body.data.eventId);
      const sent = JSON.parse(received.body.toString('utf8'));
      expect(sent).toEqual({
        event: 'webhook.test',
        timestamp: expect.any(String),
        data: { webhookId: body.data.id, url: body.data.url },
        actor: { type: 'api_key', id: own.keyId },
        requestId: expect.any(String),
      });
      expect(
        await verifySignatures([
          { body: received.body, signature: received.headers['x-service-signature'] as string, secret: 'test-secret' },
        ]),
      ).toEqual([true]);

      const log = await as(own).get(`/webhooks/${body.data.id}/deliveries`).expect(200);
      expect(log.body).toEqual({
        success: true,
        data: [response.body.data],
        meta: { total: 1, page: 1, limit: 20, totalPages: 1, hasNextPage: false, hasPrevPage: false, nextCursor: null },
      });
    });

    it('records a receiver error as failed with its status code', async () => {
      receiver.behave('/test-500', { status: 500 });
      const own = await createTenant(suite.app);
      const { body } = await create(own, { url: receiver.url('/test-500'), events: ['skill.rated'] });
      const response = await as(own).post(`/webhooks/${body.data.id}/test`, {}).expect(200);
      expect(response.body.data).toMatchObject({ status: 'failed', statusCode: 500, error: null });
    });

    it('records a connection failure as failed with the reason', async () => {
      const own = await createTenant(suite.app);
      // Port 1 on loopback: nothing listens there.
      const { body } = await create(own, { url: 'https://127.0.0.1:1/x', events: ['skill.rated'] });
      const response = await as(own).post(`/webhooks/${body.data.id}/test`, {}).expect(200);
      expect(response.body.data).toMatchObject({
        status: 'failed',
        statusCode: null,
        error: expect.stringContaining('ECONNREFUSED'),
      });
    });

    it('pages the delivery log newest first', async () => {
      const own = await createTenant(suite.app);
      const { body } = await create(own, { url: receiver.url('/test-log'), events: ['skill.rated'] });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await as(own).post(`/webhooks/${body.data.id}/test`, {})).body.data.deliveryId);
      }
      const first = await as(own).get(`/webhooks/${body.data.id}/deliveries?limit=2`).expect(200);
      expect(first.body.data.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([ids[2], ids[1]]);
      expect(first.body.meta).toEqual({
        total: 3,
        page: 1,
        limit: 2,
        totalPages: 2,
        hasNextPage: true,
        hasPrevPage: false,
        nextCursor: expect.any(String),
      });
      const second = await as(own).get(`/webhooks/${body.data.id}/deliveries?limit=2&page=2`).expect(200);
      expect(second.body.data.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([ids[0]]);
      await as(own).get(`/webhooks/${body.data.id}/deliveries?limit=101`).expect(400);
    });

    it("answers 404 for another organisation's endpoint and for malformed ids", async () => {
      const { body } = await create(other, { url: receiver.url('/test-foreign'), events: ['skill.rated'] });
      await as(suite.tenant).post(`/webhooks/${body.data.id}/test`, {}).expect(404);
      await as(suite.tenant).get(`/webhooks/${body.data.id}/deliveries`).expect(404);
      await as(suite.tenant).post('/webhooks/nope/test', {}).expect(404);
      await as(suite.tenant).get('/webhooks/nope/deliveries').expect(404);
      expect(receiver.on('/test-foreign')).toEqual([]);
    });
  });

  describe('redeliver, recover and rotate-secret (extensions): requests, validation and tenancy', () => {
    const unknownId = '0199a000-0000-7000-8000-000000000000';
    let own: TestTenant;
    let endpointId: string;
    let testDelivery: { deliveryId: string; eventId: string };

    beforeAll(async () => {
      own = await createTenant(suite.app);
      endpointId = (await create(own, { url: receiver.url('/ops'), events: ['skill.rated'], secret: 'first' })).body
        .data.id;
      testDelivery = (await as(own).post(`/webhooks/${endpointId}/test`, {}).expect(200)).body.data;
    });

    it('redelivers a delivery: 202 with the new log entry, pending, repeating it', async () => {
      const response = await as(own)
        .post(`/webhooks/${endpointId}/deliveries/${testDelivery.deliveryId}/redeliver`, {})
        .expect(202);
      expect(response.body).toEqual({
        success: true,
        data: {
          deliveryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          eventId: testDelivery.eventId,
          event: 'webhook.test',
          status: 'pending',
          statusCode: null,
          error: null,
          durationMs: null,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          attemptedAt: null,
          redeliveryOf: testDelivery.deliveryId,
        },
      });
      expect(response.body.data.deliveryId).not.toBe(testDelivery.deliveryId);
      const log = await as(own).get(`/webhooks/${endpointId}/deliveries`).expect(200);
      expect(log.body.data[0]).toEqual(response.body.data);
    });

    it('answers recover with 202 and the number queued (none when nothing failed)', async () => {
      const response = await as(own).post(`/webhooks/${endpointId}/recover`, { since: '2020-01-01' }).expect(202);
      expect(response.body).toEqual({ success: true, data: { queued: 0 } });
    });

    it.each([
      ['no since', {}],
      ['a since that is not a date-time', { since: 'yesterday' }],
      ['a since that names no real instant', { since: '2026-02-30T10:00:00Z' }],
      ['a since that is not a string', { since: 1767225600 }],
      ['an unknown field', { since: '2026-01-01', failedOnly: true }],
    ])('rejects a recover with %s with 400', async (_case, body) => {
      const response = await as(own).post(`/webhooks/${endpointId}/recover`, body).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('rotates the secret: 200 with the endpoint, the new secret sealed, the previous one kept sealed for the overlap', async () => {
      const rotating = (
        await create(own, { url: 'https://hooks.example.com/rotate', events: ['skill.rated'], secret: 'old-secret' })
      ).body.data;
      const before = Date.now();
      const response = await as(own)
        .post(`/webhooks/${rotating.id}/rotate-secret`, { secret: 'new-secret', overlapSeconds: 3600 })
        .expect(200);
      // A rotation is a change of the endpoint: its version moves.
      expect(response.body).toEqual({ success: true, data: { ...rotating, version: 2 } });
      const key = webhookSealingKey();
      const [row] = await dataSourceOf(suite.app).query(
        `SELECT secret_sealed, previous_secret_sealed, previous_secret_expires_at FROM webhook_endpoints WHERE id = $1`,
        [rotating.id],
      );
      expect(openSecret(key, row.secret_sealed, rotating.id)).toBe('new-secret');
      expect(row.previous_secret_sealed.includes(Buffer.from('old-secret'))).toBe(false);
      expect(openSecret(key, row.previous_secret_sealed, rotating.id)).toBe('old-secret');
      const expiresAt = new Date(row.previous_secret_expires_at).getTime();
      expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);

      // A rotation without overlap erases the previous secret at once.
      await as(own).post(`/webhooks/${rotating.id}/rotate-secret`, { secret: 'third', overlapSeconds: 0 }).expect(200);
      const [after] = await dataSourceOf(suite.app).query(
        `SELECT secret_sealed, previous_secret_sealed, previous_secret_expires_at FROM webhook_endpoints WHERE id = $1`,
        [rotating.id],
      );
      expect(openSecret(key, after.secret_sealed, rotating.id)).toBe('third');
      expect(after).toMatchObject({ previous_secret_sealed: null, previous_secret_expires_at: null });
    });

    it('keeps the previous secret for a day when no overlap is given', async () => {
      const before = Date.now();
      await as(own).post(`/webhooks/${endpointId}/rotate-secret`, { secret: 'default-overlap' }).expect(200);
      const [row] = await dataSourceOf(suite.app).query(
        `SELECT previous_secret_expires_at FROM webhook_endpoints WHERE id = $1`,
        [endpointId],
      );
      expect(new Date(row.previous_secret_expires_at).getTime()).toBeGreaterThanOrEqual(before + 86_400_000);
    });

    it.each([
      ['no secret', { overlapSeconds: 60 }, 'secret'],
      ['an empty secret', { secret: '' }, 'secret'],
      ['a secret over 256 characters', { secret: 's'.repeat(257) }, 'secret'],
      ['a secret that is not a string', { secret: 42 }, 'secret'],
      ['a negative overlap', { secret: 'x', overlapSeconds: -1 }, 'overlapSeconds'],
      ['an overlap over a week', { secret: 'x', overlapSeconds: 604_801 }, 'overlapSeconds'],
      ['a fractional overlap', { secret: 'x', overlapSeconds: 1.5 }, 'overlapSeconds'],
      ['an overlap as a string', { secret: 'x', overlapSeconds: '60' }, 'overlapSeconds'],
      ['a null overlap', { secret: 'x', overlapSeconds: null }, 'overlapSeconds'],
      ['an unknown field', { secret: 'x', previous: 'y' }, 'previous'],
    ])('rejects a rotation with %s with 400', async (_case, body, field) => {
      const response = await as(own).post(`/webhooks/${endpointId}/rotate-secret`, body).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details).toEqual([expect.objectContaining({ field })]);
    });

    it('accepts the bounds of the overlap, 0 and 604800 seconds', async () => {
      for (const overlapSeconds of [0, 604_800]) {
        await as(own).post(`/webhooks/${endpointId}/rotate-secret`, { secret: 'bound', overlapSeconds }).expect(200);
      }
    });

    it("answers 404 for another organisation's endpoint or delivery, and changes nothing", async () => {
      const theirs = (await create(other, { url: receiver.url('/ops-foreign'), events: ['skill.rated'] })).body.data;
      const theirDelivery = (await as(other).post(`/webhooks/${theirs.id}/test`, {}).expect(200)).body.data;
      const mine = as(own);
      await mine.post(`/webhooks/${theirs.id}/deliveries/${theirDelivery.deliveryId}/redeliver`, {}).expect(404);
      // Their delivery through my endpoint's path is not mine either.
      await mine.post(`/webhooks/${endpointId}/deliveries/${theirDelivery.deliveryId}/redeliver`, {}).expect(404);
      await mine.post(`/webhooks/${theirs.id}/recover`, { since: '2020-01-01' }).expect(404);
      await mine.post(`/webhooks/${theirs.id}/rotate-secret`, { secret: 'stolen' }).expect(404);
      const [row] = await dataSourceOf(suite.app).query(
        `SELECT secret_sealed, previous_secret_expires_at FROM webhook_endpoints WHERE id = $1`,
        [theirs.id],
      );
      expect(row).toEqual({ secret_sealed: null, previous_secret_expires_at: null });
      const log = await as(other).get(`/webhooks/${theirs.id}/deliveries`).expect(200);
      expect(log.body.data).toHaveLength(1);
    });

    it("answers 404 for a delivery of another of the organisation's endpoints, unknown and malformed ids", async () => {
      const second = (await create(own, { url: receiver.url('/ops-second'), events: ['skill.rated'] })).body.data;
      const mine = as(own);
      await mine.post(`/webhooks/${second.id}/deliveries/${testDelivery.deliveryId}/redeliver`, {}).expect(404);
      await mine.post(`/webhooks/${endpointId}/deliveries/${unknownId}/redeliver`, {}).expect(404);
      await mine.post(`/webhooks/${unknownId}/deliveries/${testDelivery.deliveryId}/redeliver`, {}).expect(404);
      await mine.post(`/webhooks/${endpointId}/deliveries/nope/redeliver`, {}).expect(404);
      await mine.post('/webhooks/nope/deliveries/nope/redeliver', {}).expect(404);
      await mine.post(`/webhooks/${unknownId}/recover`, { since: '2020-01-01' }).expect(404);
      await mine.post('/webhooks/nope/recover', { since: '2020-01-01' }).expect(404);
      await mine.post(`/webhooks/${unknownId}/rotate-secret`, { secret: 'x' }).expect(404);
      await mine.post('/webhooks/nope/rotate-secret', { secret: 'x' }).expect(404);
    });
  });

  describe('SSRF protection', () => {
    let strict: NestExpressApplication;
    beforeAll(async () => {
      strict = await createTestApp({ webhookAllowPrivateNetworks: false }, [TrustCertificateModule.of(certificate)]);
    });
    afterAll(() => strict.close());

    it.each([
      ['a loopback address', '127.0.0.1'],
      ['a name that resolves to loopback', 'localhost'],
    ])('refuses to connect to %s and records the delivery as refused', async (_case, host) => {
      const own = await createTenant(strict);
      const { post, get } = apiClient(
        () => strict,
        () => own,
      );
      const path = `/ssrf-${host}`;
      const { body } = await post('/webhooks', { url: receiver.url(path, host), events: ['skill.rated'] }).expect(201);
      const response = await post(`/webhooks/${body.data.id}/test`, {}).expect(200);
      expect(response.body.data).toMatchObject({
        status: 'refused',
        statusCode: null,
        error: expect.stringContaining('not a public address'),
      });
      const log = await get(`/webhooks/${body.data.id}/deliveries`);
      expect(log.body.data).toEqual([response.body.data]);
      expect(receiver.on(path)).toEqual([]);
    });
  });

  describe('OpenAPI', () => {
    it('documents the webhook routes, the extensions and never a secret in a response', async () => {
      const { body } = await http().get('/api/v1/openapi.json').expect(200);
      expect(Object.keys(body.paths)).toEqual(
        expect.arrayContaining([
          '/webhooks',
          '/webhooks/{id}',
          '/webhooks/{id}/deliveries',
          '/webhooks/{id}/test',
          '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
          '/webhooks/{id}/recover',
          '/webhooks/{id}/rotate-secret',
        ]),
      );
      expect(body.paths['/webhooks'].post.responses['201']).toBeDefined();
      expect(body.paths['/webhooks'].post.responses['409']).toBeDefined();
      expect(Object.keys(body.components.schemas.WebhookEndpoint.properties).sort()).toEqual([
        'createdAt',
        'events',
        'id',
        'url',
        'version',
      ]);
      expect(body.components.schemas.CreateWebhookDto.required.sort()).toEqual(['events', 'url']);
      expect(body.components.schemas.WebhookDelivery.properties.statusCode.nullable).toBe(true);
      expect(body.paths['/webhooks/{id}'].delete.responses['200'].content['application/json'].schema).toMatchObject({
        properties: { data: { $ref: '#/components/schemas/Deleted' } },
      });
      expect(body.components.schemas.WebhookDeleted).toBeUndefined();
      expect(body.components.schemas.WebhookDelivery.properties.redeliveryOf.nullable).toBe(true);
      expect(body.components.schemas.WebhookDelivery.required).toEqual(expect.arrayContaining(['eventId']));
      expect(body.components.schemas.RotateSecretDto.required).toEqual(['secret']);
      expect(body.components.schemas.RotateSecretDto.properties.overlapSeconds).toMatchObject({
        type: 'integer',
        minimum: 0,
        maximum: 604800,
        description: expect.stringContaining('Default: `86400`'),
      });
      expect(body.components.schemas.RecoverDto.required).toEqual(['since']);
      expect(Object.keys(body.paths['/webhooks/{id}/recover'].post.responses)).toEqual(
        expect.arrayContaining(['202', '400', '404']),
      );
      expect(body.paths['/webhooks/{id}/deliveries/{deliveryId}/redeliver'].post.responses['202']).toBeDefined();
      expect(JSON.stringify(body.components.schemas.WebhookEndpoint)).not.toMatch(/secret/i);
    });
  });
});
