import { createTenant, createTestApp, TEST_SERVICE_SECRET_KEY, TestTenant } from '../support/app';
import { describeIfPostgres } from '../support/requirements';
import { freePort, ServerProcess, startServer } from '../support/server-process';
import { TraceCollector } from '../support/trace-collector';
import { waitUntil } from '../support/wait-until';

jest.setTimeout(90_000);

/** docs/api-decisions.md, "Data protection": logs, traces and metrics never carry an employee's personal data. */
describeIfPostgres('personal data stays out of logs, traces and metrics', () => {
  const collector = new TraceCollector();
  let tenant: TestTenant;
  let server: ServerProcess;
  let metricsPort: number;

  beforeAll(async () => {
    const app = await createTestApp();
    tenant = await createTenant(app, 'Log privacy');
    await app.close();
    const endpoint = await collector.start();
    metricsPort = await freePort();
    server = await startServer({
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
      METRICS_PORT: String(metricsPort),
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await collector.stop();
  });

  async function call(method: string, path: string, body?: object): Promise<{ status: number; data: any }> {
    const response = await fetch(`http://127.0.0.1:${server.port}/api/v1${path}`, {
      method,
      headers: {
        Authorization: tenant.bearer,
        ...(body && { 'Content-Type': 'application/json' }),
        ...(method === 'POST' && { 'Idempotency-Key': `log-${Math.random()}` }),
      },
      body: body && JSON.stringify(body),
    });
    const parsed = (await response.json()) as { data?: unknown };
    return { status: response.status, data: parsed.data };
  }

  it('finds no name, email, personnel number, title or comment in the output, span attributes or metrics', async () => {
    const mark = (what: string) => `${what}${Math.random().toString(36).slice(2, 10)}`;
    const person = {
      personnelNumber: mark('PN'),
      firstName: mark('First'),
      lastName: mark('Last'),
      businessEmail: `${mark('mail')}@example.com`,
      title: mark('Title'),
    };
    const comment = mark('Comment');
    const renamed = mark('Renamed');
    const created = await call('POST', '/employees', person);
    expect(created.status).toBe(201);
    const id = (created.data as { id: string }).id;
    const skill = await call('POST', '/skills', { name: mark('Skill') });
    expect(skill.status).toBe(201);
    const skillId = (skill.data as { id: string }).id;
    // Successes, a conflict and a validation error, each carrying the values.
    expect((await call('PATCH', `/employees/${id}`, { firstName: renamed, title: mark('T') })).status).toBe(200);
    expect((await call('POST', '/employees', { ...person, personnelNumber: mark('PN') })).status).toBe(409);
    expect((await call('POST', '/employees', { ...person, businessEmail: person.firstName })).status).toBe(400);
    const rating = { skillId, score: 3, ratingType: 'MANAGER_EVALUATION', comment };
    expect((await call('POST', `/employees/${id}/ratings`, rating)).status).toBe(201);
    expect((await call('GET', `/employees?search=${person.lastName}`)).status).toBe(200);
    expect((await call('GET', `/employees/${id}/personal-data`)).status).toBe(200);
    expect((await call('POST', `/employees/${id}/erase`, {})).status).toBe(200);

    // Every request is in the access log (its id) and the traces have arrived, so the output is complete.
    await server.waitFor(new RegExp(`/api/v1/employees/${id}/erase`));
    await waitUntil(
      () => Buffer.concat(collector.bodies).includes(Buffer.from(`/api/v1/employees/${id}/erase`)),
      'the erase request reaches the collector',
      { intervalMs: 100 },
    );
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const spans = Buffer.concat(collector.bodies).toString('latin1');
    const values = [...Object.values(person), comment, renamed];
    const leaks = (text: string) => values.filter((value) => text.includes(value));
    expect(server.output()).toContain(`"path":"/api/v1/employees/${id}/personal-data"`);
    expect({ log: leaks(server.output()), spans: leaks(spans), metrics: leaks(metrics) }).toEqual({
      log: [],
      spans: [],
      metrics: [],
    });
  });
});
