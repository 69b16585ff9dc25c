import { join } from 'node:path';
import { recreateDatabase } from '../support/global-setup';
import { previousRelease } from '../support/previous-release';
import { has } from '../support/requirements';
import { runCliProcess, ServerProcess, startServer } from '../support/server-process';
import { describeSmoke, smokeEnv } from '../support/smoke';
import { functionsOf, withClient } from '../support/sql-functions';
import { testCertificate } from '../support/tls';
import { verifyStandardSignature, WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

const previous = previousRelease();
const MISSING = !has('postgres')
  ? 'needs a PostgreSQL server'
  : !previous.dir
    ? 'needs the previous release installed and built in PREVIOUS_RELEASE_DIR: .ci/mixed-version-pass does it'
    : undefined;
if (MISSING) process.stderr.write(`skipped the mixed-version pass: ${MISSING}\n`);
const describeMixed = MISSING ? describe.skip : describe;

/** The previous release's server and command line: its dist/, run from its directory (its node_modules). */
const PREVIOUS = previous.dir ? { build: join(previous.dir, 'dist'), cwd: previous.dir } : {};

/** A database of this file's own, beside the run's. */
function scratchDatabase(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL!);
  url.pathname = `/${decodeURIComponent(url.pathname.slice(1))}_mixed_${name}_${process.pid}`;
  return url.toString();
}

/** What release 4 compares its function files with at every start (sql_function_files), as it stands. */
function recordedFunctionFiles(url: string) {
  return withClient(url, async (client) => (await client.query('SELECT * FROM sql_function_files ORDER BY file')).rows);
}

async function cli(env: NodeJS.ProcessEnv, options: typeof PREVIOUS, ...args: string[]): Promise<any> {
  const result = await runCliProcess([...args, '--json'], env, options);
  if (result.code !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout);
}

const origin = (server: ServerProcess) => `http://127.0.0.1:${server.port}`;

/**
 * A rolling update from the previous release (.ci/previous-release) to this commit, and back: instances of both
 * serve one database at once, in both orders of migrating it, and the smoke subset passes against each.
 */
describeMixed(`a rolling update between ${previous.version} and this commit`, () => {
  describe(`(a) ${previous.version} serving on the schema this commit migrated (a rollback)`, () => {
    const database = scratchDatabase('a');
    const env = smokeEnv(database);
    let old: ServerProcess | undefined;

    beforeAll(() => recreateDatabase(database));
    afterAll(async () => {
      await old?.stop();
      await recreateDatabase(database, true);
    });

    it(`starts ${previous.version} on it without writing a function or its record of them again`, async () => {
      const { applied } = (await cli(env, {}, 'db', 'migrate')) as { applied: string[] };
      expect(applied).toContain('Release4SqlFunctions1763765600000');
      const functions = await functionsOf(database);
      const records = await recordedFunctionFiles(database);
      old = await startServer(env, PREVIOUS);
      expect(await functionsOf(database)).toEqual(functions);
      expect(await recordedFunctionFiles(database)).toEqual(records);
    });

    it(`delivers, signed, to a webhook endpoint this commit created: ${previous.version} opens its sealed secret`, async () => {
      const receiver = new WebhookReceiver(testCertificate());
      await receiver.start();
      // This commit serves beside it without dispatching, so the previous release alone signs the delivery.
      const current = await startServer({ ...env, DISPATCH_MODE: 'off' });
      try {
        const organisation = (await cli(env, {}, 'org', 'create', `Rollback ${process.pid}`)) as { id: string };
        const { key } = (await cli(env, {}, 'api-key', 'create', '--org', organisation.id)) as { key: string };
        const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
        const post = (server: ServerProcess, path: string, body: object) =>
          fetch(`${origin(server)}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
        const secret = `whsec-rollback-${process.pid}`;
        const url = receiver.url('/rollback');
        expect((await post(current, '/webhooks', { url, events: ['employee.created'], secret })).status).toBe(201);
        const number = `rollback-${process.pid}`;
        const employee = {
          personnelNumber: number,
          firstName: 'Ada',
          lastName: 'Back',
          businessEmail: `${number}@example.com`,
        };
        expect((await post(old!, '/employees', employee)).status).toBe(201);

        const [delivery] = await receiver.waitFor('/rollback', 1, 20_000);
        expect(verifyStandardSignature(delivery, secret)).toEqual({ library: true, byHand: true });
      } finally {
        await current.stop();
        await receiver.stop();
      }
    });

    describeSmoke(`the smoke subset against ${previous.version}`, () => ({ origins: [origin(old!)], env }));
  });

  describe(`(b) this commit starting beside ${previous.version}, on the schema ${previous.version} migrated`, () => {
    const database = scratchDatabase('b');
    const env = smokeEnv(database);
    let old: ServerProcess | undefined;
    let current: ServerProcess | undefined;

    beforeAll(async () => {
      await recreateDatabase(database);
      await cli(env, PREVIOUS, 'db', 'migrate');
      old = await startServer(env, PREVIOUS);
    });
    afterAll(async () => {
      await Promise.all([old?.stop(), current?.stop()]);
      await recreateDatabase(database, true);
    });

    it(`keeps ${previous.version} serving while this commit starts and migrates; neither rewrites the other's functions`, async () => {
      // Made with the previous release's command line: this commit's would migrate the database before its server.
      const organisation = (await cli(env, PREVIOUS, 'org', 'create', `Rolling ${process.pid}`)) as { id: string };
      const { key } = (await cli(env, PREVIOUS, 'api-key', 'create', '--org', organisation.id)) as { key: string };
      const oldFunctions = await functionsOf(database);
      const oldRecords = await recordedFunctionFiles(database);

      // Writes and reads on the old instance, one after the other, for as long as the new one takes to start.
      let starting = true;
      const statuses: number[] = [];
      const traffic = (async () => {
        for (let index = 0; starting; index++) {
          const number = `rolling-${process.pid}-${index}`;
          const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
          const body = {
            personnelNumber: number,
            firstName: 'Ada',
            lastName: 'Roll',
            businessEmail: `${number}@example.com`,
          };
          const created = await fetch(`${origin(old!)}/api/v1/employees`, {
            method: 'POST',
            headers,
            body: JSON.stringify(body),
          });
          const { data } = (await created.json()) as { data: { id: string } };
          const read = await fetch(`${origin(old!)}/api/v1/employees/${data.id}`, { headers });
          await read.arrayBuffer();
          statuses.push(created.status, read.status);
        }
      })();
      try {
        current = await startServer(env);
      } finally {
        starting = false;
        await traffic;
      }
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([]);

      // The new release added what it needs (new names, if any) and left every function of the old one as it was.
      const bothFunctions = await functionsOf(database);
      const kept = (functions: typeof oldFunctions) =>
        functions.filter(({ name, arguments: args }) =>
          oldFunctions.some((each) => each.name === name && each.arguments === args),
        );
      expect(kept(bothFunctions)).toEqual(oldFunctions);
      expect(await recordedFunctionFiles(database)).toEqual(oldRecords);

      // An instance of the old release starting now (a pod replaced mid-update, or a rollback) changes none of it.
      await old!.stop();
      old = await startServer(env, PREVIOUS);
      expect(await functionsOf(database)).toEqual(bothFunctions);
      expect(await recordedFunctionFiles(database)).toEqual(oldRecords);
    });

    describeSmoke(`the smoke subset against ${previous.version} and this commit together`, () => ({
      origins: [origin(old!), origin(current!)],
      env,
    }));
  });
});
