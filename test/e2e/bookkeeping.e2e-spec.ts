import { setTimeout as sleep } from 'node:timers/promises';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { checkedRequest } from '../support/api-client';
import { createTenant, createTestApp, TestTenant } from '../support/app';
import { itWithConcurrentSessions, NEEDS_A_SERVER } from '../support/database-kind';

/** A session of its own beside the app's pool (direct, when the run goes through PgBouncer). */
async function ownSession(): Promise<Client> {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL });
  await client.connect();
  return client;
}

describe('bookkeeping writes (issue 41)', () => {
  let app: NestExpressApplication;
  let tenant: TestTenant;

  beforeAll(async () => {
    app = await createTestApp();
    tenant = await createTenant(app, 'Bookkeeping');
  });
  afterAll(() => app.close());

  const LOCK_MS = 8000;
  const KEYS = 20;

  itWithConcurrentSessions(
    `never lets a key's last use wait on a lock: 20 first uses under LOCK TABLE api_keys ${NEEDS_A_SERVER}`,
    async () => {
      const keys = [];
      for (let index = 0; index < KEYS; index++) {
        keys.push(await app.get(ApiKeysService).create(tenant.organisationId, { name: `first use ${index}` }));
      }
      // A key in use before the lock: its reads must go on too.
      await checkedRequest(app).get('/api/v1/me').set('Authorization', tenant.bearer).expect(200);

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
          const { status } = await checkedRequest(app).get('/api/v1/me').set('Authorization', `Bearer ${key.key}`);
          answers.push({ status, ms: Date.now() - at, at });
          const old = Date.now();
          const { status: oldStatus } = await checkedRequest(app)
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

        const unlockedAt = Date.now();
        let written: Array<{ id: string; last_used_at: Date | null }> = [];
        while (Date.now() - unlockedAt < 60_000) {
          ({ rows: written } = await locker.query('SELECT id, last_used_at FROM api_keys WHERE id = ANY ($1::uuid[])', [
            keys.map((key) => key.id),
          ]));
          if (written.every((row) => row.last_used_at !== null)) break;
          await sleep(250);
        }
        expect(written.filter((row) => row.last_used_at === null)).toEqual([]);
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
});
