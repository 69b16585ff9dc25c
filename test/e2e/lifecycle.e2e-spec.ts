import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { request as httpRequest, Agent, Server as HttpServer } from 'node:http';
import { createServer, connect, Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '../../src/config/config';
import { MIGRATIONS } from '../../src/database/migrations';
import { openRuntime } from '../../src/runtime';
import { createTenant, createTestApp, TEST_SERVICE_SECRET_KEY } from '../support/app';
import { recreateDatabase } from '../support/global-setup';
import { has, itIfPostgres } from '../support/requirements';
import { ServerProcess, startServer } from '../support/server-process';

jest.setTimeout(180_000);

const testDatabaseUrl = () => process.env.TEST_DATABASE_URL!;

interface Answer {
  status: number;
  connection?: string;
}

/** A failed call: its error code, and whether it went out on a kept-alive connection or a new one. */
class CallFailed extends Error {
  constructor(
    readonly code: string,
    readonly reusedConnection: boolean,
  ) {
    super(code);
  }
}

function get(port: number, path: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = httpRequest({ host: '127.0.0.1', port, path, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection }));
    });
    call.on('error', (error: NodeJS.ErrnoException) =>
      reject(new CallFailed(error.code ?? error.message, call.reusedSocket)),
    );
    call.end();
  });
}

describe('shutdown', () => {
  const dataDirs: string[] = [];
  afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** The server in a process of its own, on the test database when it is a real server, else on its own embedded one. */
  async function serverEnv(extra: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
    if (has('postgres')) {
      return { DATABASE_URL: testDatabaseUrl(), SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY, ...extra };
    }
    const dataDir = mkdtempSync(join(tmpdir(), 'skills-shutdown-'));
    dataDirs.push(dataDir);
    return { DATA_DIR: dataDir, ...extra };
  }

  /** A valid key of the server's database: made through the test database, or the embedded one's first key. */
  async function bearerFor(server: ServerProcess): Promise<string> {
    if (!has('postgres')) return `Bearer ${(await server.waitFor(/API key: +(sk_\S+)/))[1]}`;
    const helper = await createTestApp();
    const tenant = await createTenant(helper);
    await helper.close();
    return tenant.bearer;
  }

  it('turns not-ready at once, serves with Connection: close through the delay, drains and exits 0', async () => {
    const server = await startServer(await serverEnv({ SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_TIMEOUT_MS: '10000' }));
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    expect((await get(server.port, '/health/ready', agent)).status).toBe(200);
    // An idle kept-alive connection of another client must not hold the exit back.
    const idle = connect({ host: '127.0.0.1', port: server.port });
    idle.on('error', () => undefined);

    // A client that keeps calling over kept-alive connections, before, during and after the signal.
    const answers: Answer[] = [];
    const failures: { code: string; reusedConnection: boolean; at: number }[] = [];
    let calling = true;
    const caller = (async () => {
      while (calling) {
        try {
          answers.push(await get(server.port, '/health/live', agent));
        } catch (error) {
          const { code, reusedConnection } = error as CallFailed;
          failures.push({ code, reusedConnection, at: Date.now() });
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signalledAt = Date.now();
    const exited = server.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ready = await get(server.port, '/health/ready', agent);
    expect(ready.status).toBe(503);
    expect(ready.connection).toBe('close');

    const code = await exited;
    const tookMs = Date.now() - signalledAt;
    calling = false;
    await caller;
    idle.destroy();
    agent.destroy();

    expect(code).toBe(0);
    expect(tookMs).toBeGreaterThanOrEqual(1500);
    expect(tookMs).toBeLessThan(10_000);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThan(10);
    expect(answers.some((answer) => answer.connection === 'close')).toBe(true);
    // Once it stops accepting (after the delay), new connections are refused: by the kernel, or reset when one
    // was still in the listen queue as the listener closed (a loaded machine makes that window wide). No
    // kept-alive connection, and no request sent while the server still accepted, is ever reset.
    const refusedAtClose = ({ code, reusedConnection, at }: (typeof failures)[number]) =>
      code === 'ECONNREFUSED' || (code === 'ECONNRESET' && !reusedConnection && at - signalledAt >= 1500);
    expect(failures.filter((failure) => !refusedAtClose(failure))).toEqual([]);
    expect(server.output()).toContain('SIGTERM received');
  });

  it('exits 0 at SHUTDOWN_TIMEOUT_MS when a request never finishes, and drops a connection that sent nothing', async () => {
    const server = await startServer(await serverEnv({ SHUTDOWN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '2000' }));
    const bearer = await bearerFor(server);
    const silent = connect({ host: '127.0.0.1', port: server.port });
    const stuck = connect({ host: '127.0.0.1', port: server.port });
    for (const socket of [silent, stuck]) socket.on('error', () => undefined);
    await new Promise((resolve) => stuck.once('connect', resolve));
    // A slow upload: its headers arrive, then half of its body, then nothing.
    stuck.write(
      `POST /api/v1/skills HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    const signalledAt = Date.now();
    const code = await server.stop('SIGTERM');
    const tookMs = Date.now() - signalledAt;
    stuck.destroy();
    expect(code).toBe(0);
    expect(tookMs).toBeGreaterThanOrEqual(1900);
    expect(tookMs).toBeLessThan(6000);
    expect(server.output()).toMatch(/Still busy 2000 ms after SIGTERM/);
    expect(silent.destroyed || silent.readableEnded).toBe(true);
  });
});

describe('keep-alive', () => {
  it('keeps idle connections HTTP_KEEP_ALIVE_TIMEOUT_MS, and waits for headers a little longer', async () => {
    const app = await createTestApp({ httpKeepAliveTimeoutMs: 70_000 });
    try {
      const server: HttpServer = app.getHttpServer();
      expect(server.keepAliveTimeout).toBe(70_000);
      expect(server.headersTimeout).toBeGreaterThan(70_000);
    } finally {
      await app.close();
    }
  });
});

describe('start-up', () => {
  // The embedded database admits one process.
  itIfPostgres('applies each migration once when three instances start together on an empty database', async () => {
    const url = new URL(testDatabaseUrl());
    url.pathname = `/${decodeURIComponent(url.pathname.slice(1))}_migrate_${process.pid}`;
    await recreateDatabase(url.toString());
    const env: Record<string, string> = { DATABASE_URL: url.toString(), SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY };
    // Behind PgBouncer (TEST_PGBOUNCER=true) the migration lock takes a session of its own: the direct URL.
    const direct = process.env.TEST_DATABASE_DIRECT_URL;
    if (direct) env.DATABASE_DIRECT_URL = Object.assign(new URL(direct), { pathname: url.pathname }).toString();
    try {
      const servers = await Promise.all([startServer(env), startServer(env), startServer(env)]);
      const codes = await Promise.all(servers.map((server) => server.stop()));
      expect(codes).toEqual([0, 0, 0]);
      for (const server of servers) expect(server.output()).not.toMatch(/"level":50|ERROR/);

      const client = new Client({ connectionString: url.toString() });
      await client.connect();
      const { rows } = await client.query<{ name: string; count: number }>(
        'SELECT name, count(*)::int AS count FROM migrations GROUP BY name ORDER BY name',
      );
      await client.end();
      expect(rows).toHaveLength(MIGRATIONS.length);
      expect(rows.every((row) => row.count === 1)).toBe(true);
    } finally {
      await recreateDatabase(url.toString(), true);
    }
  });

  it.each([
    ['a file', () => join(mkdtempSync(join(tmpdir(), 'skills-file-')), 'not-a-dir')],
    ['under /proc', () => '/proc/skills-data'],
  ])('stops with one line naming DATA_DIR when it is %s', async (_name, dataDir) => {
    const path = dataDir();
    if (path.endsWith('not-a-dir')) writeFileSync(path, 'x');
    await expect(openRuntime({ ...loadConfig({}), dataDir: path })).rejects.toThrow(
      /^Invalid configuration: DATA_DIR must be a directory this process can write/,
    );
  });

  it('reports a port in use in one line, before the embedded database is made', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as AddressInfo).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'skills-port-'));
    try {
      const failure = await startServer({ DATA_DIR: dataDir }, { port }).then(
        () => new Error('the server started'),
        (error: Error) => error,
      );
      const [exitLine, ...output] = failure.message.trim().split('\n');
      expect(exitLine).toBe('server exited with 1:');
      expect(output.map((line) => JSON.parse(line) as { level: number; msg: string })).toEqual([
        expect.objectContaining({
          level: 60,
          msg: `Invalid configuration: PORT ${port} is already in use by another process`,
        }),
      ]);
      expect(existsSync(join(dataDir, 'pgdata'))).toBe(false);
    } finally {
      blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
