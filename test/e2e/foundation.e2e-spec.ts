import { ApiKeysService } from '../../src/auth/api-keys.service';
import { apiClient } from '../support/api-client';
import { createTenant } from '../support/app';
import { ProbeModule } from '../support/probe.module';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';

describe('foundation: auth, envelope and errors', () => {
  const suite = useTestApp({ imports: [ProbeModule], tenant: 'once' });

  const api = suite.api;
  const anonymous = apiClient(() => suite.app);
  const outsideApi = apiClient(() => suite.app, undefined, { prefix: '' });

  describe('API key guard', () => {
    it('accepts a valid key and hands its organisation to the controller', async () => {
      const response = await api.get<{ organisationId: string }>('/probe').expect(200);
      expect(response.body).toEqual({ success: true, data: { organisationId: suite.tenant.organisationId } });
    });

    it('accepts the scheme word in any case', async () => {
      await anonymous.get('/probe').set('Authorization', `bEaReR ${suite.tenant.key}`).expect(200);
    });

    it.each([
      ['missing', undefined],
      ['malformed', `Token ${'x'.repeat(10)}`],
      ['without a key', 'Bearer '],
      ['unknown', 'Bearer sk_unknownunknownunknown'],
    ])('refuses a %s key with 401 UNAUTHORIZED', async (_case, header) => {
      const call = anonymous.get('/probe');
      if (header !== undefined) call.set('Authorization', header);
      const response = await call.expect(401);
      expect(response.body).toEqual({
        success: false,
        error: { message: expect.any(String), code: 'UNAUTHORIZED' },
      });
    });

    it('refuses a revoked key within 5 seconds', async () => {
      const other = await createTenant(suite.app);
      const asOther = apiClient(
        () => suite.app,
        () => other,
      );
      await asOther.get('/probe').expect(200);
      await suite.app.get(ApiKeysService).revoke(other.keyId);
      await waitUntil(async () => (await asOther.get('/probe')).status === 401, 'the revoked key is refused', {
        timeoutMs: 5000,
        intervalMs: 200,
      });
    });
  });

  describe('envelope and errors', () => {
    it('wraps a page with meta beside data', async () => {
      const response = await api.get<{ n: number }[]>('/probe/page?page=2&limit=20');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: [{ n: 1 }],
        meta: { total: 41, page: 2, limit: 20, totalPages: 3, hasNextPage: true, hasPrevPage: true },
      });
    });

    it.each(['0', '-1', 'abc', '1.5'])('rejects page=%s with 400', async (page) => {
      const response = await api.get(`/probe/page?page=${page}`);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details).toEqual([expect.objectContaining({ field: 'page' })]);
    });

    it.each(['0', '101', 'x'])('rejects limit=%s with 400', async (limit) => {
      const response = await api.get(`/probe/page?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(response.body.error.details[0].field).toBe('limit');
    });

    it('answers an unknown route with the NOT_FOUND envelope', async () => {
      const response = await api.get('/no-such-thing').expect(404);
      expect(response.body).toEqual({ success: false, error: { message: expect.any(String), code: 'NOT_FOUND' } });
    });

    it('answers a malformed path id with 404, not 400 or 500', async () => {
      const response = await api.get('/probe/items/not-a-uuid');
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    });

    it('names every invalid field and rejects unknown fields', async () => {
      const response = await api
        .post('/probe/echo', { name: 'far too long a name', count: 'x', extra: true })
        .expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      const fields = response.body.error.details.map((detail: { field: string }) => detail.field).sort();
      expect(fields).toEqual(['count', 'extra', 'name']);
    });

    it('rejects malformed JSON with 400', async () => {
      const response = await api
        .call('post', '/probe/echo')
        .set('Content-Type', 'application/json')
        .send('{"name": ')
        .expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('rejects a JSON body that is not an object with 400', async () => {
      const response = await api
        .call('post', '/probe/echo')
        .set('Content-Type', 'application/json')
        .send('[1,2]')
        .expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('rejects a body that is not application/json with 415', async () => {
      const response = await api
        .call('post', '/probe/echo')
        .set('Content-Type', 'text/plain')
        .send('name=x')
        .expect(415);
      expect(response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('rejects a body over 1 MiB with 413', async () => {
      const response = await api
        .call('post', '/probe/echo')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ name: 'x'.repeat(1024 * 1024) }))
        .expect(413);
      expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('hides the cause of an unexpected error behind a generic 500', async () => {
      const response = await api.get('/probe/crash').expect(500);
      expect(response.body).toEqual({
        success: false,
        error: { message: 'Internal server error', code: 'INTERNAL_ERROR' },
      });
      expect(JSON.stringify(response.body)).not.toContain('secret_table');
    });

    it('echoes a given X-Request-Id and makes one otherwise', async () => {
      const given = await outsideApi.get('/health/live').set('X-Request-Id', 'abc-123');
      expect(given.headers['x-request-id']).toBe('abc-123');
      const made = await outsideApi.get('/health/live');
      expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});
