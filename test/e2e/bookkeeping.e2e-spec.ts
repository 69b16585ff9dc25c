import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { OrganisationsService } from '../../src/auth/organisations.service';
import { BulkItemResultResponse } from '../../src/bulk/bulk';
import { ConflictError } from '../../src/errors/errors';
import { apiClient, checkedRequest } from '../support/api-client';
import { createTenant, TestTenant } from '../support/app';
import { itWithConcurrentSessions, NEEDS_A_SERVER, onEmbeddedDatabase } from '../support/database-kind';
import { createEmployee, createSkill, unique } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';

/** A session of its own beside the app's pool (direct, when the run goes through PgBouncer). */
async function ownSession(): Promise<Client> {
  const client = new Client({
    connectionString: process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL,
  });
  await client.connect();
  return client;
}

/** What the server's log got since a point: its text, or why it cannot be read. */
interface ServerLog {
  /** The text written since the log was opened. */
  since(): Promise<string>;
  /** The prefix of this database's lines, when log_line_prefix names the database (%d). */
  ownLines: string | null;
}

/**
 * PostgreSQL's own log, read through the server (pg_read_file, a superuser's): pg_current_logfile() with the
 * logging collector on, else the file Debian's pg_ctlcluster sends the server's stderr to
 * (/var/log/postgresql/postgresql-<cluster_name with ->.log). A marker raised at LOG level must show up in it,
 * or it is not this server's log. The reason, when it cannot be read.
 */
async function openServerLog(client: Client): Promise<ServerLog | string> {
  if (onEmbeddedDatabase()) return 'the embedded database keeps no server log';
  const {
    rows: [settings],
  } = await client.query<{ current: string | null; cluster: string; directory: string; prefix: string; db: string }>(
    `SELECT pg_current_logfile() AS current, current_setting('cluster_name') AS cluster,
            current_setting('data_directory') AS directory, current_setting('log_line_prefix') AS prefix,
            current_database() AS db`,
  );
  const path = settings.current
    ? settings.current.startsWith('/')
      ? settings.current
      : `${settings.directory}/${settings.current}`
    : settings.cluster
      ? `/var/log/postgresql/postgresql-${settings.cluster.replace('/', '-')}.log`
      : null;
  if (!path) return 'logging_collector is off and the server has no cluster_name to find its stderr log by';
  let start: number;
  try {
    ({
      rows: [{ size: start }],
    } = await client.query<{ size: number }>(`SELECT size::bigint::float8 AS size FROM pg_stat_file($1)`, [path]));
  } catch (error) {
    return `cannot read ${path} through the server: ${(error as Error).message}`;
  }
  const since = async () =>
    (
      await client.query<{ text: string }>(
        `SELECT pg_read_file($1, $2::bigint, (pg_stat_file($1)).size - $2::bigint) AS text`,
        [path, start],
      )
    ).rows[0].text;
  const marker = `issue-41 marker ${randomUUID()}`;
  await client.query(`DO $$ BEGIN RAISE LOG '${marker}'; END $$`);
  await sleep(200);
  if (!(await since()).includes(marker)) return `${path} does not receive this server's messages`;
  return { since, ownLines: settings.prefix.includes('%d') ? `@${settings.db} ` : null };
}

describe('bookkeeping writes (issue 41)', () => {
  const suite = useTestApp({ tenant: 'none' });
  let tenant: TestTenant;

  beforeAll(async () => {
    tenant = await createTenant(suite.app, 'Bookkeeping');
  });

  const LOCK_MS = 8000;
  const KEYS = 20;

  itWithConcurrentSessions(
    `never lets a key's last use wait on a lock: 20 first uses under LOCK TABLE api_keys ${NEEDS_A_SERVER}`,
    async () => {
      const keys = [];
      for (let index = 0; index < KEYS; index++) {
        keys.push(await suite.app.get(ApiKeysService).create(tenant.organisationId, { name: `first use ${index}` }));
      }
      // A key in use before the lock: its reads must go on too.
      await checkedRequest(suite.app).get('/api/v1/me').set('Authorization', tenant.bearer).expect(200);

      const locker = await ownSession();
      const answers: Array<{ status: number; ms: number; at: number }> = [];
      try {
        await locker.query('BEGIN');
        // Reads of api_keys go on under EXCLUSIVE; every write of it waits until the lock goes.
        await locker.query('LOCK TABLE api_keys IN EXCLUSIVE MODE');
        const lockedAt = Date.now();
        const spacing = (LOCK_MS - 2000) / KEYS;
        for (const [index, key] of keys.entries()) {
          await sleep(Math.max(0, lockedAt + index * spacing - Date.now()));
          const at = Date.now();
          const { status } = await checkedRequest(suite.app)
            .get('/api/v1/me')
            .set('Authorization', `Bearer ${key.key}`);
          answers.push({ status, ms: Date.now() - at, at });
          const old = Date.now();
          const { status: oldStatus } = await checkedRequest(suite.app)
            .get('/api/v1/employees')
            .set('Authorization', tenant.bearer);
          answers.push({ status: oldStatus, ms: Date.now() - old, at: old });
        }
        await sleep(Math.max(0, lockedAt + LOCK_MS - Date.now()));
        const { rows } = await locker.query<{ written: number }>(
          'SELECT count(*)::int AS written FROM api_keys WHERE id = ANY ($1::uuid[]) AND last_used_at IS NOT NULL',
          [keys.map((key) => key.id)],
        );
        expect(rows[0].written).toBe(0);
      } finally {
        await locker.query('COMMIT').catch(() => undefined);
      }
      try {
        expect(answers.filter(({ status }) => status !== 200)).toEqual([]);
        expect(Math.max(...answers.map(({ ms }) => ms))).toBeLessThan(1000);

        const ids = keys.map((key) => key.id);
        const written = await waitUntil(
          async () => {
            const { rows } = await locker.query<{ id: string; last_used_at: Date | null }>(
              'SELECT id, last_used_at FROM api_keys WHERE id = ANY ($1::uuid[])',
              [ids],
            );
            return rows.every((row) => row.last_used_at !== null) && rows;
          },
          "every key's last use is written",
          { timeoutMs: 60_000, intervalMs: 250 },
        );
        // Each key's last use is its request's time, written once the lock went.
        const firstUses = answers.filter((_answer, index) => index % 2 === 0);
        for (const [index, key] of keys.entries()) {
          const stored = written.find((row) => row.id === key.id)!.last_used_at!.getTime();
          expect(stored).toBeGreaterThanOrEqual(firstUses[index].at - 5);
          expect(stored).toBeLessThanOrEqual(firstUses[index].at + firstUses[index].ms + 5);
        }
      } finally {
        await locker.end();
      }
    },
    90_000,
  );

  it("answers every duplicate 409 without a unique violation in PostgreSQL's log", async () => {
    const name = "answers every duplicate 409 without a unique violation in PostgreSQL's log";
    const reader = await ownSession();
    try {
      const log = await openServerLog(reader);
      if (typeof log === 'string') {
        process.stderr.write(`skipped "${name}": ${log}\n`);
        return;
      }
      const { post, patch } = apiClient(
        () => suite.app,
        () => tenant,
      );
      const conflict = (message: string) => ({ success: false, error: { code: 'CONFLICT', message } });
      const taken = await createEmployee(suite.app, tenant);
      const other = await createEmployee(suite.app, tenant);
      const third = await createEmployee(suite.app, tenant);
      const skill = await createSkill(suite.app, tenant);
      const otherSkill = await createSkill(suite.app, tenant);
      const numberTaken = 'An employee with this personnelNumber already exists';
      const emailTaken = 'An employee with this businessEmail already exists';
      const nameTaken = 'A skill with this name already exists';
      const person = (fields: object) => ({ personnelNumber: unique('p'), firstName: 'Ada', lastName: 'L', ...fields });
      const values = [taken.personnelNumber, taken.businessEmail, third.businessEmail, skill.name];

      // Single POST and PATCH.
      await post(
        '/employees',
        person({ personnelNumber: taken.personnelNumber, businessEmail: `${unique('e')}@example.com` }),
      ).expect(409, conflict(numberTaken));
      await post('/employees', person({ businessEmail: taken.businessEmail.toUpperCase() })).expect(
        409,
        conflict(emailTaken),
      );
      // Both taken: personnelNumber's index comes first, as PostgreSQL checked them.
      await post(
        '/employees',
        person({ personnelNumber: taken.personnelNumber, businessEmail: taken.businessEmail }),
      ).expect(409, conflict(numberTaken));
      await patch(`/employees/${other.id}`, { personnelNumber: taken.personnelNumber }).expect(
        409,
        conflict(numberTaken),
      );
      await patch(`/employees/${other.id}`, { businessEmail: taken.businessEmail.toUpperCase() }).expect(
        409,
        conflict(emailTaken),
      );
      await post('/skills', { name: skill.name.toUpperCase() }).expect(409, conflict(nameTaken));
      await patch(`/skills/${otherSkill.id}`, { name: skill.name.toLowerCase() }).expect(409, conflict(nameTaken));

      // Bulk items: a create with a taken e-mail, an update to a taken e-mail, beside items that are written. A
      // skill's bulk item finds its skill by name, so it never takes another's: a change of case is no conflict.
      const employees = await post<BulkItemResultResponse[]>('/employees/bulk', {
        items: [
          person({ businessEmail: taken.businessEmail.toUpperCase() }),
          { personnelNumber: other.personnelNumber, businessEmail: third.businessEmail },
          person({ businessEmail: `${unique('e')}@example.com` }),
        ],
      }).expect(200);
      expect(employees.body.data.map((item) => [item.status, item.error?.message])).toEqual([
        ['failed', emailTaken],
        ['failed', emailTaken],
        ['created', undefined],
      ]);
      const skills = await post<BulkItemResultResponse[]>('/skills/bulk', {
        items: [{ name: skill.name.toUpperCase() }, { name: unique('Skill') }],
      }).expect(200);
      expect(skills.body.data.map((item) => [item.status, item.error?.message])).toEqual([
        ['updated', undefined],
        ['created', undefined],
      ]);
      // An organisation's name (the command line's `org create`).
      const organisation = `Bookkeeping ${randomUUID()}`;
      values.push(organisation);
      await suite.app.get(OrganisationsService).create(organisation);
      await expect(suite.app.get(OrganisationsService).create(organisation.toUpperCase())).rejects.toBeInstanceOf(
        ConflictError,
      );

      await sleep(500);
      const text = await log.since();
      const ours = text.split('\n').filter((line) => log.ownLines === null || line.includes(log.ownLines));
      expect(ours.filter((line) => /\bERROR:/.test(line))).toEqual([]);
      expect(values.filter((value) => text.toLowerCase().includes(value.toLowerCase()))).toEqual([]);

      // The reading works: a unique violation sent by hand is there, with its (lower-cased) value.
      const control = `Control ${randomUUID()}`;
      await reader.query(`INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, now())`, [
        randomUUID(),
        control,
      ]);
      await expect(
        reader.query(`INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, now())`, [
          randomUUID(),
          control,
        ]),
      ).rejects.toThrow('organisations_name_key');
      await waitUntil(
        async () => (await log.since()).toLowerCase().includes(control.toLowerCase()),
        "the control's violation is in the server log",
      );
    } finally {
      await reader.end();
    }
  });
});
