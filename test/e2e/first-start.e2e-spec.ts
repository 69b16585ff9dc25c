import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { recreateDatabase } from '../support/global-setup';
import { TEST_WEBHOOK_SECRET_KEY } from '../support/app';
import { runCliProcess, ServerProcess, startServer } from '../support/server-process';

jest.setTimeout(120_000);

const KEY_LINE = /first API key \(shown only this once\): (sk_[\w-]+)/;

describe('first start on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'skills-first-start-'));
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates organisation Default with one key, prints it once with a curl line, and the key works', async () => {
    server = await startServer({ DATA_DIR: dataDir });
    const key = KEY_LINE.exec(server.output())?.[1];
    expect(key).toBeDefined();
    expect(server.output()).toContain(`curl -H 'Authorization: Bearer ${key}' http://localhost:${server.port}/api/v1/employees`);

    const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/employees`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    const unauthorised = await fetch(`http://127.0.0.1:${server.port}/api/v1/employees`);
    expect(unauthorised.status).toBe(401);
  });

  it('refuses a second process on the same embedded database, saying so', async () => {
    const second = await runCliProcess(['org', 'create', 'Other', '--json'], { DATA_DIR: dataDir });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('in use by another process');
  });

  it('prints no key on a restart, and the first key still works', async () => {
    const firstKey = KEY_LINE.exec(server!.output())![1];
    expect(await server!.stop()).toBe(0);
    server = await startServer({ DATA_DIR: dataDir });
    expect(server.output()).not.toMatch(KEY_LINE);
    const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/employees`, {
      headers: { Authorization: `Bearer ${firstKey}`, 'X-Request-Id': 'first-start-probe' },
    });
    expect(response.status).toBe(200);
  });

  it('logs each request as one JSON line with id, method, path, status and duration, and never the key', async () => {
    const firstKey = KEY_LINE.exec(server!.output()) ?? null;
    expect(firstKey).toBeNull(); // this process never printed a key
    const line = await eventually(() =>
      server!
        .output()
        .split('\n')
        .find((entry) => entry.includes('first-start-probe')),
    );
    expect(JSON.parse(line!)).toMatchObject({
      req: { id: 'first-start-probe', method: 'GET', path: '/api/v1/employees' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(server!.output()).not.toMatch(/sk_[\w-]{20,}/);
  });
});

/** The child's output arrives through a pipe: wait a little for a line it has surely written. */
async function eventually<T>(read: () => T | undefined, timeoutMs = 3000): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  let value = read();
  while (value === undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = read();
  }
  return value;
}

describe('start on PostgreSQL (DATABASE_URL)', () => {
  const url = `postgres://postgres@127.0.0.1:5432/skills_test_fresh_${process.pid}`;

  beforeAll(() => recreateDatabase(url));
  afterAll(() => recreateDatabase(url, true));

  it('applies pending migrations at start and never creates a first key', async () => {
    const server = await startServer({ DATABASE_URL: url, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY });
    await server.stop();
    expect(server.output()).not.toMatch(KEY_LINE);

    const client = new Client({ connectionString: url });
    await client.connect();
    const migrations = await client.query('SELECT count(*)::int AS n FROM migrations');
    const keys = await client.query('SELECT count(*)::int AS n FROM api_keys');
    await client.end();
    expect(migrations.rows[0].n).toBeGreaterThan(0);
    expect(keys.rows[0].n).toBe(0);
  });

  it('refuses to start without WEBHOOK_SECRET_KEY, in one line naming it', async () => {
    await expect(startServer({ DATABASE_URL: url })).rejects.toThrow(
      /Invalid configuration: WEBHOOK_SECRET_KEY is required when DATABASE_URL is set/,
    );
  });
});
