import { createTenant, createTestApp, TEST_SERVICE_SECRET_KEY, TestTenant } from '../support/app';
import { describeIfPostgres } from '../support/requirements';
import { ServerProcess, startServer } from '../support/server-process';
import { TraceCollector } from '../support/trace-collector';

jest.setTimeout(90_000);

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** The access log line of a request, by its X-Request-Id, once the server has written it. */
async function accessLine(server: ServerProcess, requestId: string): Promise<{ traceId?: string }> {
  const match = await server.waitFor(new RegExp(`^.*"id":"${requestId}".*$`, 'm'));
  return JSON.parse(match[0]) as { traceId?: string };
}

async function get(server: ServerProcess, tenant: TestTenant, requestId: string, traceparent?: string) {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/employees?limit=1`, {
    headers: { Authorization: tenant.bearer, 'X-Request-Id': requestId, ...(traceparent && { traceparent }) },
  });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
}

describeIfPostgres('tracing', () => {
  let tenant: TestTenant;
  const env = () => ({
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
    LOG_FORMAT: 'json',
  });

  beforeAll(async () => {
    const app = await createTestApp();
    tenant = await createTenant(app, 'Tracing');
    await app.close();
  });

  describe('without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    let server: ServerProcess;
    beforeAll(async () => (server = await startServer(env())));
    afterAll(() => server?.stop());

    it('logs the trace id of an incoming traceparent', async () => {
      await get(server, tenant, 'trace-in', TRACEPARENT);
      expect((await accessLine(server, 'trace-in')).traceId).toBe(TRACE_ID);
    });

    it('logs a new trace id for a request without a valid traceparent', async () => {
      await get(server, tenant, 'trace-none');
      await get(server, tenant, 'trace-bad', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`);
      const first = (await accessLine(server, 'trace-none')).traceId;
      const second = (await accessLine(server, 'trace-bad')).traceId;
      expect(first).toMatch(/^[0-9a-f]{32}$/);
      expect(second).toMatch(/^[0-9a-f]{32}$/);
      expect(second).not.toBe(first);
    });
  });

  describe('with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    const collector = new TraceCollector();
    let server: ServerProcess;
    beforeAll(async () => {
      const endpoint = await collector.start();
      server = await startServer({ ...env(), OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' });
    });
    afterAll(async () => {
      await server?.stop();
      await collector.stop();
    });

    it('exports the HTTP, Express and database spans of a request in the caller’s trace', async () => {
      await get(server, tenant, 'trace-otlp', TRACEPARENT);
      expect((await accessLine(server, 'trace-otlp')).traceId).toBe(TRACE_ID);
      await collector.waitFor([
        Buffer.from(TRACE_ID, 'hex'),
        Buffer.from('@opentelemetry/instrumentation-http'),
        Buffer.from('@opentelemetry/instrumentation-express'),
        Buffer.from('@opentelemetry/instrumentation-pg'),
        Buffer.from('skills-service'),
      ]);
    });

    it('logs the trace id the SDK gave a request without traceparent', async () => {
      await get(server, tenant, 'trace-sdk');
      const { traceId } = await accessLine(server, 'trace-sdk');
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      await collector.waitFor([Buffer.from(traceId!, 'hex')]);
    });
  });
});
