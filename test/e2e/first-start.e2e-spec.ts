import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TEST_SERVICE_SECRET_KEY } from '../support/app';
import { recreateDatabase } from '../support/global-setup';
import { describeIfPostgres } from '../support/requirements';
import { runCliProcess, ServerProcess, startServer } from '../support/server-process';
import { waitUntil } from '../support/wait-until';

jest.setTimeout(90_000);

/** The framed block of a first start: the key's id, the key, a curl line with it, and the console admin's welcome link. */
const KEY_BLOCK =
  /\n={78}\n First start: created organisation "Default" and its first API key\.\n.*\n\n API key id: ([0-9a-f-]{36})\n API key: {4}(sk_[\w-]+)\n\n Try it:\n curl -H 'Authorization: Bearer \2' http:\/\/localhost:(\d+)\/api\/v1\/employees\n\n Console: open this link to choose a password for admin@localhost \(works once, for 72 hours\):\n (http:\/\/localhost:\d+\/console\/welcome\/[\w-]{43})\n={78}\n\n/;
const ANY_KEY = /sk_[\w-]{20,}/;
/** Logged once start-up is over, first key included. */
const LISTENING = /Listening on port \d+/;

const directories: string[] = [];
function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'skills-first-start-'));
  directories.push(directory);
  return directory;
}
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));

/** Stops every server a test started, whatever the test's outcome. */
const servers: ServerProcess[] = [];
async function start(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const server = await startServer(env);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

describe('first start on the embedded database', () => {
  /** An initialised, migrated embedded database that holds no key: a copy starts in seconds, not after initdb. */
  const template = temporaryDirectory();
  beforeAll(async () => {
    const migrated = await runCliProcess(['db', 'migrate', '--json'], { DATA_DIR: template });
    if (migrated.code !== 0) throw new Error(`could not make the template database:\n${migrated.stderr}`);
  });
  const freshCopy = () => {
    const dataDir = temporaryDirectory();
    cpSync(template, dataDir, { recursive: true });
    return dataDir;
  };

  it('on an empty DATA_DIR creates organisation Default and one key, prints both in a block on stdout, and the key works', async () => {
    const server = await start({ DATA_DIR: join(temporaryDirectory(), 'data') });
    const [, id, key, port] = await server.waitFor(KEY_BLOCK);
    expect(Number(port)).toBe(server.port);

    const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/employees`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    const unauthorised = await fetch(`http://127.0.0.1:${server.port}/api/v1/employees`);
    expect(unauthorised.status).toBe(401);

    // The log says that a key was made, and which, but never holds the key itself.
    const logLines = server.stdout().replace(KEY_BLOCK, '').trim().split('\n');
    expect(logLines.map((line) => JSON.parse(line) as { msg: string }).map(({ msg }) => msg)).toContain(
      `Created organisation Default and its first API key ${id}`,
    );
    expect(logLines.join('\n')).not.toMatch(ANY_KEY);
  });

  it('makes admin@localhost the console admin of Default: the printed link lets them choose a password and sign in', async () => {
    const server = await start({ DATA_DIR: freshCopy() });
    const [, , , port, link] = await server.waitFor(KEY_BLOCK);
    expect(link).toMatch(new RegExp(`^http://localhost:${port}/console/welcome/`));
    const origin = `http://127.0.0.1:${server.port}`;
    // The link's token moves into a cookie, and the browser to the form's URL without it.
    const opened = await fetch(`${origin}${new URL(link).pathname}`, { redirect: 'manual' });
    expect([opened.status, opened.headers.get('location')]).toEqual([303, '/console/welcome']);
    const welcome = { Cookie: opened.headers.get('set-cookie')!.split(';')[0] };
    const page = await fetch(`${origin}/console/welcome`, { headers: welcome });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('admin@localhost');
    const chosen = await fetch(`${origin}/console/welcome`, {
      method: 'POST',
      headers: { ...welcome, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'password=the+first+admin+password',
      redirect: 'manual',
    });
    expect(chosen.status).toBe(303);
    const session = chosen.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .find((cookie) => cookie.startsWith('console_session='));
    const people = await fetch(`${origin}/console/people`, { headers: { Cookie: session! } });
    expect(people.status).toBe(200);
    const text = await people.text();
    expect(text).toContain('<span class="organisation">Default</span>');
    expect(text).toMatch(/admin@localhost[\s\S]*<option value="admin"\s+selected>/);
  });

  it('prints the block whatever LOG_LEVEL is', async () => {
    const server = await start({ DATA_DIR: freshCopy(), LOG_LEVEL: 'silent' });
    await server.waitFor(KEY_BLOCK);
    expect(server.stdout().replace(KEY_BLOCK, '')).toBe('');
  });

  it('refuses a second process on the same embedded database, saying so', async () => {
    const dataDir = freshCopy();
    await start({ DATA_DIR: dataDir });
    const second = await runCliProcess(['org', 'create', 'Other', '--json'], { DATA_DIR: dataDir });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('in use by another process');
  });

  it('prints no key on a restart, and the first key still works', async () => {
    const dataDir = freshCopy();
    const first = await start({ DATA_DIR: dataDir });
    const [, , key] = await first.waitFor(KEY_BLOCK);
    expect(await first.stop()).toBe(0);

    const restarted = await start({ DATA_DIR: dataDir });
    await restarted.waitFor(LISTENING);
    expect(restarted.output()).not.toMatch(ANY_KEY);
    expect(restarted.output()).not.toMatch(/\/console\/welcome\/[\w-]{43}/);
    const response = await fetch(`http://127.0.0.1:${restarted.port}/api/v1/employees`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
  });

  it('logs each request as one JSON line with id, method, path, status and duration, and never the key', async () => {
    const server = await start({ DATA_DIR: freshCopy() });
    const [, , key] = await server.waitFor(KEY_BLOCK);
    await fetch(`http://127.0.0.1:${server.port}/api/v1/employees`, {
      headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'first-start-probe' },
    });
    // The child's output arrives through a pipe: wait a little for a line it has surely written.
    const line = await waitUntil(
      () =>
        server
          .stdout()
          .split('\n')
          .find((entry) => entry.includes('first-start-probe')),
      'the server logs the probe',
      { timeoutMs: 3000 },
    );
    expect(JSON.parse(line)).toMatchObject({
      req: { id: 'first-start-probe', method: 'GET', path: '/api/v1/employees' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(server.stdout().replace(KEY_BLOCK, '')).not.toMatch(ANY_KEY);
  });

  it('starts without route warnings, and never names the health routes under /api/v1', async () => {
    const server = await start({ DATA_DIR: freshCopy() });
    await server.waitFor(LISTENING);
    expect(server.output()).not.toContain('LegacyRouteConverter');
    expect(server.output()).not.toContain('/api/v1/health');
    expect(server.output()).toContain('Mapped {/health/live, GET} route');
  });

  it('prints lines for a person with LOG_FORMAT=pretty', async () => {
    const server = await start({ DATA_DIR: freshCopy(), LOG_FORMAT: 'pretty' });
    await server.waitFor(LISTENING);
    await fetch(`http://127.0.0.1:${server.port}/health/live`, { headers: { 'X-Request-Id': 'pretty-probe' } });
    const logLines = server.stdout().replace(KEY_BLOCK, '').trim().split('\n');
    expect(logLines).toContainEqual(
      expect.stringMatching(/INFO: \[FirstStart\] Created organisation Default and its first API key [0-9a-f-]{36}$/),
    );
    for (const line of logLines) expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN): /);
    expect(logLines.some((line) => /INFO: \[Main\] Listening on port \d+$/.test(line))).toBe(true);
    const request = await waitUntil(
      () =>
        server
          .stdout()
          .split('\n')
          .find((entry) => entry.includes('(request pretty-probe)')),
      'the server logs the probe',
      { timeoutMs: 3000 },
    );
    expect(request).toMatch(/INFO: GET \/health\/live 200 \d+ms \(request pretty-probe\)$/);
  });
});

describe('start with DATABASE_URL', () => {
  it('refuses to start without SERVICE_SECRET_KEY, in one line naming it', async () => {
    await expect(start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/skills_test_unused' })).rejects.toThrow(
      /Invalid configuration: SERVICE_SECRET_KEY is required when DATABASE_URL is set/,
    );
  });

  describeIfPostgres('on a PostgreSQL server', () => {
    const url = (() => {
      const server = new URL(process.env.TEST_DATABASE_URL!);
      server.pathname = `/skills_test_fresh_${process.pid}`;
      return server.toString();
    })();

    beforeAll(() => recreateDatabase(url));
    afterAll(() => recreateDatabase(url, true));

    it('applies pending migrations at start and never creates a first key', async () => {
      // WEBHOOK_SECRET_KEY, the service secret's name until release 5: an operator's old settings still start it.
      const server = await start({ DATABASE_URL: url, WEBHOOK_SECRET_KEY: TEST_SERVICE_SECRET_KEY });
      await server.waitFor(LISTENING);
      await server.stop();
      expect(server.output()).not.toMatch(ANY_KEY);

      const client = new Client({ connectionString: url });
      await client.connect();
      const migrations = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM migrations');
      const keys = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys');
      await client.end();
      expect(migrations.rows[0].n).toBeGreaterThan(0);
      expect(keys.rows[0].n).toBe(0);
    });
  });
});
