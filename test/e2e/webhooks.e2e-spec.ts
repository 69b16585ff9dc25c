import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { TEST_WEBHOOK_SECRET_KEY, createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { makeSelfSignedCertificate, TrustCertificateModule } from '../support/tls';
import { verifySignatures, WebhookReceiver } from '../support/webhook-receiver';
import { openSecret } from '../../src/webhooks/secret-box';

const EVENTS = ['employee.created', 'employee.updated', 'employee.deactivated', 'skill.rated', 'position.updated'];

describe('webhooks: endpoint API', () => {
  const certificate = makeSelfSignedCertificate();
  let app: NestExpressApplication;
  let receiver: WebhookReceiver;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
    app = await createTestApp({}, [TrustCertificateModule.of(certificate)]);
    tenant = await createTenant(app);
    other = await createTenant(app);
  });
  afterAll(async () => {
    await app.close();
    await receiver.stop();
  });

  const http = () => request(app.getHttpServer());
  const create = (who: TestTenant, body: object) => http().post('/api/v1/webhooks').set('Authorization', who.bearer).send(body);

  describe('POST /webhooks', () => {
    it('registers an endpoint and answers 201 with id, url, events and createdAt only', async () => {
      const response = await create(tenant, {
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
        },
      });
      expect(JSON.stringify(response.body)).not.toContain('top-secret-value');
    });

    it('accepts every known event, and no secret', async () => {
      const response = await create(tenant, { url: 'https://hooks.example.com/all', events: EVENTS }).expect(201);
      expect(response.body.data.events).toEqual(EVENTS);
    });

    it('stores the secret encrypted with the service key, bound to the endpoint', async () => {
      const { body } = await create(tenant, {
        url: 'https://hooks.example.com/sealed',
        events: ['skill.rated'],
        secret: 'sealed-secret-value',
      }).expect(201);
      const [row] = await dataSourceOf(app).query(`SELECT secret_sealed FROM webhook_endpoints WHERE id = $1`, [body.data.id]);
      const sealed: Buffer = row.secret_sealed;
      expect(sealed.includes(Buffer.from('sealed-secret-value'))).toBe(false);
      expect(openSecret(Buffer.from(TEST_WEBHOOK_SECRET_KEY, 'hex'), sealed, body.data.id)).toBe('sealed-secret-value');
    });

    it.each([
      ['an http url', { url: 'http://hooks.example.com/x', events: ['skill.rated'] }, 'url'],
      ['a relative url', { url: '/hooks', events: ['skill.rated'] }, 'url'],
      ['a url that is not a url', { url: 'https//nope', events: ['skill.rated'] }, 'url'],
      ['a url with user info', { url: 'https://user:pass@hooks.example.com/', events: ['skill.rated'] }, 'url'],
      ['a url with a user name only', { url: 'https://user@hooks.example.com/', events: ['skill.rated'] }, 'url'],
      ['a url with spaces', { url: 'https://hooks.example.com/a b', events: ['skill.rated'] }, 'url'],
      ['a url with a line break', { url: 'https://hooks.exa\nmple.com/', events: ['skill.rated'] }, 'url'],
      ['a url over 2048 characters', { url: `https://hooks.example.com/${'a'.repeat(2024)}`, events: ['skill.rated'] }, 'url'],
      ['a missing url', { events: ['skill.rated'] }, 'url'],
      ['a url that is not a string', { url: 42, events: ['skill.rated'] }, 'url'],
      ['an empty events array', { url: 'https://hooks.example.com/', events: [] }, 'events'],
      ['missing events', { url: 'https://hooks.example.com/' }, 'events'],
      ['events that are not an array', { url: 'https://hooks.example.com/', events: 'skill.rated' }, 'events'],
      ['an unknown event', { url: 'https://hooks.example.com/', events: ['skill.rated', 'employee.deleted'] }, 'events'],
      ['a repeated event', { url: 'https://hooks.example.com/', events: ['skill.rated', 'skill.rated'] }, 'events'],
      ['a secret over 256 characters', { url: 'https://hooks.example.com/', events: ['skill.rated'], secret: 's'.repeat(257) }, 'secret'],
      ['a secret that is not a string', { url: 'https://hooks.example.com/', events: ['skill.rated'], secret: 12345 }, 'secret'],
      ['an unknown field', { url: 'https://hooks.example.com/', events: ['skill.rated'], active: true }, 'active'],
    ])('rejects %s with 400', async (_case, body, field) => {
      const response = await create(tenant, body).expect(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details).toEqual([expect.objectContaining({ field })]);
    });

    it('accepts a url of exactly 2048 characters and a secret of exactly 256', async () => {
      const url = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
      const response = await create(tenant, { url, events: ['skill.rated'], secret: 's'.repeat(256) }).expect(201);
      expect(response.body.data.url).toBe(url);
    });

    it('allows 25 endpoints per organisation and refuses the 26th with 409 CONFLICT', async () => {
      const crowded = await createTenant(app);
      await Promise.all(
        Array.from({ length: 25 }, (_, i) => create(crowded, { url: `https://hooks.example.com/${i}`, events: ['skill.rated'] }).expect(201)),
      );
      const response = await create(crowded, { url: 'https://hooks.example.com/26', events: ['skill.rated'] }).expect(409);
      expect(response.body).toEqual({ success: false, error: { message: expect.any(String), code: 'CONFLICT' } });
      // Another organisation is not affected by this one's limit.
      await create(other, { url: 'https://hooks.example.com/other', events: ['skill.rated'] }).expect(201);
    });

    it('holds the limit when many creations race', async () => {
      const racing = await createTenant(app);
      const statuses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => create(racing, { url: `https://hooks.example.com/${i}`, events: ['skill.rated'] }).then((r) => r.status)),
      );
      expect(statuses.filter((status) => status === 201)).toHaveLength(25);
      expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    });
  });

  describe('GET /webhooks', () => {
    it("lists only the organisation's endpoints, oldest first, without pagination or secrets", async () => {
      const own = await createTenant(app);
      const created = [];
      for (const path of ['a', 'b', 'c']) {
        created.push((await create(own, { url: `https://hooks.example.com/${path}`, events: ['skill.rated'], secret: 'hidden-secret' })).body.data);
      }
      await create(other, { url: 'https://hooks.example.com/foreign', events: ['skill.rated'] }).expect(201);
      const response = await http().get('/api/v1/webhooks').set('Authorization', own.bearer).expect(200);
      expect(response.body).toEqual({ success: true, data: created });
      expect(JSON.stringify(response.body)).not.toContain('hidden-secret');
    });

    it('is an empty list for an organisation without endpoints', async () => {
      const empty = await createTenant(app);
      const response = await http().get('/api/v1/webhooks').set('Authorization', empty.bearer).expect(200);
      expect(response.body).toEqual({ success: true, data: [] });
    });
  });

  describe('DELETE /webhooks/{id}', () => {
    it('deletes an endpoint of the organisation', async () => {
      const own = await createTenant(app);
      const { body } = await create(own, { url: 'https://hooks.example.com/gone', events: ['skill.rated'] });
      const response = await http().delete(`/api/v1/webhooks/${body.data.id}`).set('Authorization', own.bearer).expect(200);
      expect(response.body).toEqual({ success: true, data: { deleted: true } });
      const list = await http().get('/api/v1/webhooks').set('Authorization', own.bearer);
      expect(list.body.data).toEqual([]);
      await http().delete(`/api/v1/webhooks/${body.data.id}`).set('Authorization', own.bearer).expect(404);
    });

    it("answers 404 for another organisation's endpoint and leaves it in place", async () => {
      const { body } = await create(other, { url: 'https://hooks.example.com/theirs', events: ['skill.rated'] });
      const response = await http().delete(`/api/v1/webhooks/${body.data.id}`).set('Authorization', tenant.bearer).expect(404);
      expect(response.body).toEqual({ success: false, error: { message: 'Webhook not found', code: 'NOT_FOUND' } });
      const list = await http().get('/api/v1/webhooks').set('Authorization', other.bearer);
      expect(list.body.data.map((endpoint: { id: string }) => endpoint.id)).toContain(body.data.id);
    });

    it.each(['not-a-uuid', '123', '0199a000-0000-7000-8000-00000000000g'])('answers 404 for the malformed id %s', async (id) => {
      const response = await http().delete(`/api/v1/webhooks/${id}`).set('Authorization', tenant.bearer).expect(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    });

    it('answers 404 for an unknown well-formed id', async () => {
      await http().delete('/api/v1/webhooks/0199a000-0000-7000-8000-000000000000').set('Authorization', tenant.bearer).expect(404);
    });
  });

  describe('POST /webhooks/{id}/test and GET /webhooks/{id}/deliveries (extensions)', () => {
    it('sends a signed webhook.test delivery at once, answers with its outcome and logs it', async () => {
      const own = await createTenant(app);
      const { body } = await create(own, { url: receiver.url('/test-ok'), events: ['skill.rated'], secret: 'test-secret' });
      const response = await http().post(`/api/v1/webhooks/${body.data.id}/test`).set('Authorization', own.bearer).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          deliveryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          event: 'webhook.test',
          status: 'delivered',
          statusCode: 200,
          error: null,
          durationMs: expect.any(Number),
          createdAt: expect.any(String),
          attemptedAt: expect.any(String),
        },
      });

      const [received] = receiver.on('/test-ok');
      expect(received.headers['x-service-event']).toBe('webhook.test');
      expect(received.headers['x-service-delivery']).toBe(response.body.data.deliveryId);
      const sent = JSON.parse(received.body.toString('utf8'));
      expect(sent).toEqual({ event: 'webhook.test', timestamp: expect.any(String), data: { webhookId: body.data.id, url: body.data.url } });
      expect(await verifySignatures([{ body: received.body, signature: received.headers['x-service-signature'] as string, secret: 'test-secret' }])).toEqual([true]);

      const log = await http().get(`/api/v1/webhooks/${body.data.id}/deliveries`).set('Authorization', own.bearer).expect(200);
      expect(log.body).toEqual({
        success: true,
        data: [response.body.data],
        meta: { total: 1, page: 1, limit: 20, totalPages: 1, hasNextPage: false, hasPrevPage: false },
      });
    });

    it('records a receiver error as failed with its status code', async () => {
      receiver.behave('/test-500', { status: 500 });
      const own = await createTenant(app);
      const { body } = await create(own, { url: receiver.url('/test-500'), events: ['skill.rated'] });
      const response = await http().post(`/api/v1/webhooks/${body.data.id}/test`).set('Authorization', own.bearer).expect(200);
      expect(response.body.data).toMatchObject({ status: 'failed', statusCode: 500, error: null });
    });

    it('records a connection failure as failed with the reason', async () => {
      const own = await createTenant(app);
      // Port 1 on loopback: nothing listens there.
      const { body } = await create(own, { url: 'https://127.0.0.1:1/x', events: ['skill.rated'] });
      const response = await http().post(`/api/v1/webhooks/${body.data.id}/test`).set('Authorization', own.bearer).expect(200);
      expect(response.body.data).toMatchObject({ status: 'failed', statusCode: null, error: expect.stringContaining('ECONNREFUSED') });
    });

    it('pages the delivery log newest first', async () => {
      const own = await createTenant(app);
      const { body } = await create(own, { url: receiver.url('/test-log'), events: ['skill.rated'] });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await http().post(`/api/v1/webhooks/${body.data.id}/test`).set('Authorization', own.bearer)).body.data.deliveryId);
      }
      const first = await http().get(`/api/v1/webhooks/${body.data.id}/deliveries?limit=2`).set('Authorization', own.bearer).expect(200);
      expect(first.body.data.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([ids[2], ids[1]]);
      expect(first.body.meta).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2, hasNextPage: true, hasPrevPage: false });
      const second = await http().get(`/api/v1/webhooks/${body.data.id}/deliveries?limit=2&page=2`).set('Authorization', own.bearer).expect(200);
      expect(second.body.data.map((d: { deliveryId: string }) => d.deliveryId)).toEqual([ids[0]]);
      await http().get(`/api/v1/webhooks/${body.data.id}/deliveries?limit=101`).set('Authorization', own.bearer).expect(400);
    });

    it("answers 404 for another organisation's endpoint and for malformed ids", async () => {
      const { body } = await create(other, { url: receiver.url('/test-foreign'), events: ['skill.rated'] });
      await http().post(`/api/v1/webhooks/${body.data.id}/test`).set('Authorization', tenant.bearer).expect(404);
      await http().get(`/api/v1/webhooks/${body.data.id}/deliveries`).set('Authorization', tenant.bearer).expect(404);
      await http().post('/api/v1/webhooks/nope/test').set('Authorization', tenant.bearer).expect(404);
      await http().get('/api/v1/webhooks/nope/deliveries').set('Authorization', tenant.bearer).expect(404);
      expect(receiver.on('/test-foreign')).toEqual([]);
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
      const path = `/ssrf-${host}`;
      const { body } = await request(strict.getHttpServer())
        .post('/api/v1/webhooks')
        .set('Authorization', own.bearer)
        .send({ url: receiver.url(path, host), events: ['skill.rated'] })
        .expect(201);
      const response = await request(strict.getHttpServer())
        .post(`/api/v1/webhooks/${body.data.id}/test`)
        .set('Authorization', own.bearer)
        .expect(200);
      expect(response.body.data).toMatchObject({ status: 'refused', statusCode: null, error: expect.stringContaining('not a public address') });
      const log = await request(strict.getHttpServer()).get(`/api/v1/webhooks/${body.data.id}/deliveries`).set('Authorization', own.bearer);
      expect(log.body.data).toEqual([response.body.data]);
      expect(receiver.on(path)).toEqual([]);
    });
  });

  describe('OpenAPI', () => {
    it('documents the webhook routes, the extensions and never a secret in a response', async () => {
      const { body } = await http().get('/api/v1/openapi.json').expect(200);
      expect(Object.keys(body.paths)).toEqual(
        expect.arrayContaining(['/api/v1/webhooks', '/api/v1/webhooks/{id}', '/api/v1/webhooks/{id}/deliveries', '/api/v1/webhooks/{id}/test']),
      );
      expect(body.paths['/api/v1/webhooks'].post.responses['201']).toBeDefined();
      expect(body.paths['/api/v1/webhooks'].post.responses['409']).toBeDefined();
      expect(Object.keys(body.components.schemas.WebhookEndpoint.properties).sort()).toEqual(['createdAt', 'events', 'id', 'url']);
      expect(body.components.schemas.CreateWebhookDto.required.sort()).toEqual(['events', 'url']);
      expect(body.components.schemas.WebhookDelivery.properties.statusCode.nullable).toBe(true);
      expect(body.components.schemas.WebhookDeleted.properties.deleted.type).toBe('boolean');
    });
  });
});
