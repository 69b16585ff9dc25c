import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTenant, createTestApp, TEST_SERVICE_SECRET_KEY, TestTenant } from '../support/app';
import { createEmployee } from '../support/people.factory';
import { describeIfPostgres } from '../support/requirements';
import { freePort, ServerProcess, startServer, startWorkerProcess } from '../support/server-process';

jest.setTimeout(90_000);

async function scrape(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** `name{labels} value` lines of one series, as label text → value. */
function samples(text: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(?:\\{(.*)\\})? (\\S+)$`).exec(line);
    if (match) found.set(match[1] ?? '', Number(match[2]));
  }
  return found;
}

describe('METRICS_PORT', () => {
  it('stops the start with one line naming it when the port cannot be bound', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as AddressInfo).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'skills-metrics-port-'));
    try {
      const failure = await startServer({ DATA_DIR: dataDir, LOG_FORMAT: 'json', METRICS_PORT: String(port) }).then(
        () => new Error('the server started'),
        (error: Error) => error,
      );
      const [exitLine, ...output] = failure.message.trim().split('\n');
      expect(exitLine).toBe('server exited with 1:');
      expect(output.map((line) => JSON.parse(line) as { level: number; msg: string })).toEqual([
        expect.objectContaining({
          level: 60,
          msg: `Invalid configuration: METRICS_PORT ${port} is already in use by another process`,
        }),
      ]);
    } finally {
      blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the Grafana dashboard (deploy/grafana/skills-service.json)', () => {
  interface Panel {
    id: number;
    title: string;
    type: string;
    datasource: { type: string; uid: string };
    gridPos: { x: number; y: number; w: number; h: number };
    targets: { refId: string; expr: string; datasource: { uid: string } }[];
  }
  const dashboard = JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'deploy', 'grafana', 'skills-service.json'), 'utf8'),
  ) as {
    uid: string;
    title: string;
    schemaVersion: number;
    panels: Panel[];
    templating: { list: { name: string; type: string; query: unknown }[] };
  };

  it('has what an import needs: uid, title, schema version, and a Prometheus data-source variable', () => {
    expect(dashboard.uid).toMatch(/^[\w-]{1,40}$/);
    expect(dashboard.title).toBe('Skills service');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
  });

  it('queries every panel through the data-source variable, with unique panel ids', () => {
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    for (const panel of dashboard.panels) {
      expect(panel.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const target of panel.targets) expect(target.datasource.uid).toBe('${datasource}');
    }
  });
});

describeIfPostgres('metrics of the built server', () => {
  const RATE_LIMIT = 6;
  let server: ServerProcess;
  let metricsPort: number;
  let tenant: TestTenant;
  let employeeId: string;

  beforeAll(async () => {
    const app = await createTestApp();
    tenant = await createTenant(app, 'Metrics');
    employeeId = (await createEmployee(app, tenant)).id;
    await app.close();
    metricsPort = await freePort();
    server = await startServer({
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(() => server?.stop());

  async function send(path: string, init: RequestInit = {}, key = true): Promise<number> {
    const headers = { ...(key && { Authorization: tenant.bearer }), 'Content-Type': 'application/json' };
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { ...init, headers });
    await response.arrayBuffer();
    return response.status;
  }

  it('counts a known mix of requests by method, route template and status, with no id in any label', async () => {
    const unknownId = '0190c0de-0000-7000-8000-000000000000';
    const statuses = [
      await send(`/api/v1/employees/${employeeId}`),
      await send(`/api/v1/employees/${employeeId}`),
      await send(`/api/v1/employees/${employeeId}`),
      await send(`/api/v1/employees/${unknownId}`),
      await send(`/api/v1/employees/${unknownId}`),
      await send('/api/v1/employees', {
        method: 'POST',
        body: JSON.stringify({
          personnelNumber: 'm-1',
          firstName: 'A',
          lastName: 'B',
          businessEmail: 'm1@example.com',
        }),
      }),
      // The key's seventh request in the minute.
      await send(`/api/v1/employees/${employeeId}`),
      await send('/api/v1/employees', {}, false),
      await send('/no/such/route', {}, false),
    ];
    expect(statuses).toEqual([200, 200, 200, 404, 404, 201, 429, 401, 404]);

    const text = await scrape(metricsPort);
    const counts = samples(text, 'http_server_request_duration_seconds_count');
    const apiCounts = Object.fromEntries([...counts].filter(([labels]) => !labels.includes('route="/health/')));
    expect(apiCounts).toEqual({
      'method="GET",route="/api/v1/employees/:id",status_code="200"': 3,
      'method="GET",route="/api/v1/employees/:id",status_code="404"': 2,
      'method="GET",route="/api/v1/employees/:id",status_code="429"': 1,
      'method="POST",route="/api/v1/employees",status_code="201"': 1,
      'method="GET",route="/api/v1/employees",status_code="401"': 1,
      'method="GET",route="unmatched",status_code="404"': 1,
    });
    expect(samples(text, 'rate_limit_rejections_total').get('')).toBe(1);
    for (const secret of [tenant.organisationId, tenant.keyId, employeeId, unknownId, '/no/such/route']) {
      expect(text).not.toContain(secret);
    }
  });

  it('reports the database pool, the outbox and the process', async () => {
    const text = await scrape(metricsPort);
    expect([...samples(text, 'db_client_connection_count').keys()].sort()).toEqual(['state="idle"', 'state="used"']);
    expect(samples(text, 'db_client_connection_pending_requests').get('')).toBe(0);
    expect(samples(text, 'webhook_undelivered_events').get('')).toBeGreaterThanOrEqual(0);
    expect(samples(text, 'webhook_oldest_undelivered_event_age_seconds').get('')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE webhook_deliveries_total counter');
    expect(text).toContain('# TYPE webhook_delivery_duration_seconds histogram');
    expect(samples(text, 'nodejs_eventloop_lag_seconds').size).toBe(1);
    expect(samples(text, 'process_resident_memory_bytes').size).toBe(1);
    expect(samples(text, 'process_cpu_seconds_total').size).toBe(1);
  });

  it('exports every series the Grafana dashboard and the example alert rules query', async () => {
    const root = join(__dirname, '..', '..');
    const queried = [
      readFileSync(join(root, 'deploy', 'grafana', 'skills-service.json'), 'utf8'),
      readFileSync(join(root, 'docs', 'operations.md'), 'utf8').split('### Example alert rules')[1],
    ].join('\n');
    const names = new Set(queried.match(/\b(?:http_server|db_client|webhook|rate_limit|nodejs|process)_[a-z0-9_]+/g));
    expect(names.size).toBeGreaterThan(10);
    const text = await scrape(metricsPort);
    for (const name of names) {
      const histogram = /^(.*)_(bucket|count|sum)$/.exec(name);
      const declared =
        new RegExp(`^# TYPE ${name} `, 'm').test(text) ||
        (histogram !== null && text.includes(`# TYPE ${histogram[1]} histogram`));
      expect({ name, declared }).toEqual({ name, declared: true });
    }
  });

  it('answers 404 on the metrics port for anything but /metrics', async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/api/v1/employees`);
    expect(response.status).toBe(404);
  });
});

describeIfPostgres('metrics of a worker process', () => {
  it('serves the pool, outbox and process series with no HTTP API', async () => {
    const metricsPort = await freePort();
    const worker = await startWorkerProcess({
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
      METRICS_PORT: String(metricsPort),
    });
    try {
      const text = await scrape(metricsPort);
      expect(samples(text, 'db_client_connection_count').size).toBe(2);
      expect(samples(text, 'webhook_undelivered_events').size).toBe(1);
      expect(samples(text, 'nodejs_eventloop_lag_seconds').size).toBe(1);
      expect(samples(text, 'http_server_request_duration_seconds_count').size).toBe(0);
    } finally {
      expect(await worker.stop()).toBe(0);
    }
  });
});
