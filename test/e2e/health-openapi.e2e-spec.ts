import { DataSource } from 'typeorm';
import { apiClient } from '../support/api-client';
import { createTestApp } from '../support/app';
import { useTestApp } from '../support/use-test-app';

describe('health and OpenAPI (no key needed)', () => {
  const suite = useTestApp({ tenant: 'none' });

  const api = apiClient(() => suite.app);
  const outsideApi = apiClient(() => suite.app, undefined, { prefix: '' });

  it('reports the process live', async () => {
    const response = await outsideApi.get<{ status: string }>('/health/live').expect(200);
    expect(response.body).toEqual({ success: true, data: { status: 'ok' } });
  });

  it('reports ready while the database answers', async () => {
    const response = await outsideApi.get<{ status: string }>('/health/ready').expect(200);
    expect(response.body.data.status).toBe('ok');
  });

  it('serves the OpenAPI 3 document with the bearer scheme and the error envelope', async () => {
    const response = await api.get('/openapi.json').expect(200);
    const document = response.body;
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.version).toBe('1.0.0');
    expect(document.components.securitySchemes.apiKey).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(document.security).toEqual([{ apiKey: [] }]);
    const envelope = document.components.schemas.ErrorEnvelope;
    expect(envelope.properties.error.$ref ?? envelope.properties.error.allOf?.[0]?.$ref).toBe(
      '#/components/schemas/ErrorSchema',
    );
    expect(Object.keys(document.components.schemas.ErrorSchema.properties).sort()).toEqual([
      'code',
      'details',
      'message',
    ]);
    expect(document.servers).toEqual([expect.objectContaining({ url: '/api/v1' })]);
    expect(document.paths['/health/live'].servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('serves the interactive documentation page', async () => {
    const response = await api.get('/docs').redirects(1).expect(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.text).toContain('swagger');
  });

  it('reports 503 when the database cannot be reached', async () => {
    const broken = await createTestApp();
    await broken.get(DataSource).destroy();
    const response = await apiClient(() => broken, undefined, { prefix: '' })
      .get('/health/ready')
      .expect(503);
    expect(response.body.success).toBe(false);
    await broken.close();
  });
});
