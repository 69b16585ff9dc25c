import { Client } from 'pg';
import type { EntityManager } from 'typeorm';
import { Database } from '../../src/database/database';
import { newId } from '../../src/database/uuid';
import { cliWrite } from '../../src/database/write-context';
import { DomainEventName, DomainEvents } from '../../src/events/domain-events';
import { RetentionJob, RetentionReport } from '../../src/retention/retention.job';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { itWithConcurrentSessions, NEEDS_A_SERVER } from '../support/database-kind';
import { readFeed } from '../support/event-feed';
import { publishMadeUp } from '../support/made-up-events';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';

interface FeedEvent {
  id: string;
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

interface FeedPage {
  data: FeedEvent[];
  meta: { limit: number; hasMore: boolean; nextAfter: string | null };
}

/** The advisory lock key of the retention job (src/retention/retention.repository.ts). */
const RETENTION_LOCK_KEY = 4_725_173_012;

describe('events feed: GET /events', () => {
  const suite = useTestApp({ tenant: 'none' });
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    tenant = await createTenant(suite.app);
    other = await createTenant(suite.app);
  });

  const as = (who: TestTenant) =>
    apiClient(
      () => suite.app,
      () => who,
    );

  /** Publishes a domain event inside a transaction of its own, as the feature services do. */
  const publish = (who: TestTenant, name: DomainEventName, data: object, occurredAt = new Date()) =>
    suite.app
      .get(Database)
      .transaction(
        (manager) =>
          publishMadeUp(suite.app.get(DomainEvents), manager, who.organisationId, { name, data, occurredAt }),
        cliWrite(),
      );

  const page = async (who: TestTenant, query = ''): Promise<FeedPage> =>
    (await as(who).get(`/events${query}`).expect(200)).body as FeedPage;

  /** Every event of the organisation, once `ready` holds of them (see readFeed). */
  const readAll = (who: TestTenant, ready: (events: FeedEvent[]) => boolean, filter = '') =>
    readFeed((query) => page(who, query), ready, filter);

  const marks = (events: FeedEvent[]) => events.map((event) => event.data.mark);

  it('lists every event of the API calls, oldest first, as {id, event, timestamp, data, changes?, actor, requestId}, with no endpoint subscribed', async () => {
    const own = await createTenant(suite.app);
    const { post, patch, del } = as(own);
    const created = (
      await post('/employees', {
        personnelNumber: 'E-1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        businessEmail: 'ada@example.com',
      }).expect(201)
    ).body.data;
    const updated = (await patch(`/employees/${created.id}`, { title: 'Countess' }).expect(200)).body.data;
    const skill = (await post('/skills', { name: 'Analysis' }).expect(201)).body.data;
    const rating = (
      await post(`/employees/${created.id}/ratings`, {
        skillId: skill.id,
        score: 5,
        ratingType: 'MANAGER_EVALUATION',
      }).expect(201)
    ).body.data;
    const deactivated = (await del(`/employees/${created.id}`).expect(200)).body.data;

    const events = await readAll(own, (all) => all.length === 5);
    const byKey = { actor: { type: 'api_key', id: own.keyId }, requestId: expect.any(String) };
    expect(events).toEqual([
      { id: expect.any(String), event: 'employee.created', timestamp: expect.any(String), data: created, ...byKey },
      {
        id: expect.any(String),
        event: 'employee.updated',
        timestamp: expect.any(String),
        data: updated,
        changes: { title: { previous: null, current: 'Countess' } },
        ...byKey,
      },
      { id: expect.any(String), event: 'skill.created', timestamp: skill.createdAt, data: skill, ...byKey },
      {
        id: expect.any(String),
        event: 'skill.rated',
        timestamp: rating.createdAt,
        data: { employeeId: created.id, rating },
        ...byKey,
      },
      {
        id: expect.any(String),
        event: 'employee.deactivated',
        timestamp: deactivated.leftAt,
        data: expect.objectContaining({ id: created.id, leftAt: deactivated.leftAt }),
        ...byKey,
      },
    ]);
    for (const event of events) {
      expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('keeps the exact body of the event: the feed shows what a webhook would carry', async () => {
    const own = await createTenant(suite.app);
    const occurredAt = new Date('2026-03-01T08:00:00.123Z');
    const data = { id: newId(), name: 'Ünïcode ✓ "quoted"', nested: { list: [1, null, 'x'] } };
    await publish(own, 'position.updated', data, occurredAt);
    const [event] = await readAll(own, (all) => all.length === 1);
    const [row] = await dataSourceOf(suite.app).query(`SELECT body FROM events WHERE id = $1`, [event.id]);
    expect(JSON.parse((row.body as Buffer).toString('utf8'))).toEqual({
      event: event.event,
      timestamp: event.timestamp,
      data: event.data,
      actor: { type: 'cli' },
      requestId: null,
    });
    expect(event).toEqual({
      id: event.id,
      event: 'position.updated',
      timestamp: occurredAt.toISOString(),
      data,
      actor: { type: 'cli' },
      requestId: null,
    });
  });

  it('pages with after and limit: meta tells whether more are ready and the next after', async () => {
    const own = await createTenant(suite.app);
    for (let mark = 1; mark <= 5; mark++) await publish(own, 'employee.created', { mark });
    const all = await readAll(own, (events) => events.length === 5);
    expect(marks(all)).toEqual([1, 2, 3, 4, 5]);

    const first = await page(own, '?limit=2');
    expect(first).toEqual({
      success: true,
      data: all.slice(0, 2),
      meta: { limit: 2, hasMore: true, nextAfter: all[1].id },
    });
    const second = await page(own, `?limit=2&after=${first.meta.nextAfter}`);
    expect(second.data).toEqual(all.slice(2, 4));
    expect(second.meta).toEqual({ limit: 2, hasMore: true, nextAfter: all[3].id });
    const third = await page(own, `?limit=2&after=${second.meta.nextAfter}`);
    expect(third.data).toEqual(all.slice(4));
    expect(third.meta).toEqual({ limit: 2, hasMore: false, nextAfter: all[4].id });
    const past = await page(own, `?limit=2&after=${all[4].id}`);
    expect(past).toEqual({ success: true, data: [], meta: { limit: 2, hasMore: false, nextAfter: null } });
    // The default page size is 20; an upper-case id names the same event.
    expect((await page(own)).meta).toEqual({ limit: 20, hasMore: false, nextAfter: all[4].id });
    expect((await page(own, `?after=${all[2].id.toUpperCase()}`)).data).toEqual(all.slice(3));
  });

  it('filters by event name, also after an event of another name', async () => {
    const own = await createTenant(suite.app);
    await publish(own, 'employee.created', { mark: 'a' });
    await publish(own, 'skill.rated', { mark: 'b' });
    await publish(own, 'employee.created', { mark: 'c' });
    await publish(own, 'skill.rated', { mark: 'd' });
    const all = await readAll(own, (events) => events.length === 4);
    expect(marks(await readAll(own, () => true, '&event=skill.rated'))).toEqual(['b', 'd']);
    const afterB = await page(own, `?event=employee.created&after=${all[1].id}`);
    expect(marks(afterB.data)).toEqual(['c']);
    expect(afterB.meta).toEqual({ limit: 20, hasMore: false, nextAfter: all[2].id });
    expect((await page(own, '?event=employee.deactivated')).data).toEqual([]);
  });

  it("never lists another organisation's events, and refuses its event ids as after", async () => {
    const mine = await createTenant(suite.app);
    const theirs = await createTenant(suite.app);
    await publish(mine, 'employee.created', { mark: 'mine' });
    await publish(theirs, 'employee.created', { mark: 'theirs' });
    expect(marks(await readAll(mine, (events) => events.length === 1))).toEqual(['mine']);
    const [foreign] = await readAll(theirs, (events) => events.length === 1);
    expect(foreign.data.mark).toBe('theirs');
    const response = await as(mine).get(`/events?after=${foreign.id}`).expect(400);
    expect(response.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'after', message: expect.any(String) }],
    });
  });

  it('never lists the webhook.test ping, and refuses it as after', async () => {
    const own = await createTenant(suite.app);
    const endpoint = (
      await as(own)
        .post('/webhooks', { url: 'https://127.0.0.1:1/ping', events: ['skill.rated'] })
        .expect(201)
    ).body.data;
    const ping = (await as(own).post(`/webhooks/${endpoint.id}/test`, {}).expect(200)).body.data;
    await publish(own, 'skill.rated', { mark: 'after-ping' });
    expect(marks(await readAll(own, (events) => events.length === 1))).toEqual(['after-ping']);
    await as(own).get(`/events?after=${ping.eventId}`).expect(400);
  });

  it('lists nothing of a change that rolls back', async () => {
    const own = await createTenant(suite.app);
    await expect(
      suite.app.get(Database).transaction(async (manager) => {
        await publishMadeUp(suite.app.get(DomainEvents), manager, own.organisationId, {
          name: 'employee.created',
          data: { mark: 'gone' },
        });
        throw new Error('the change fails after its event');
      }, cliWrite()),
    ).rejects.toThrow('the change fails after its event');
    await publish(own, 'employee.created', { mark: 'kept' });
    expect(marks(await readAll(own, (events) => events.length >= 1))).toEqual(['kept']);
    expect(
      await dataSourceOf(suite.app).query(`SELECT 1 FROM events WHERE organisation_id = $1`, [own.organisationId]),
    ).toHaveLength(1);
  });

  it.each([
    ['an unknown event name', '?event=employee.deleted', 'event'],
    ['the webhook.test event name', '?event=webhook.test', 'event'],
    ['a limit of 0', '?limit=0', 'limit'],
    ['a limit of 101', '?limit=101', 'limit'],
    ['a limit that is not a number', '?limit=abc', 'limit'],
    ['a fractional limit', '?limit=1.5', 'limit'],
    ['an after that is not a UUID', '?after=latest', 'after'],
    ['an after that names no event', `?after=0199a000-0000-7000-8000-000000000000`, 'after'],
    ['an unknown parameter', '?page=2', 'page'],
  ])('rejects %s with 400', async (_case, query, field) => {
    const response = await as(tenant).get(`/events${query}`).expect(400);
    expect(response.body).toEqual({
      success: false,
      error: { message: expect.any(String), code: 'VALIDATION_ERROR', details: [expect.objectContaining({ field })] },
    });
  });

  it('needs an API key', async () => {
    const response = await apiClient(
      () => suite.app,
      () => ({ ...tenant, bearer: 'Bearer sk_unknown' }),
    )
      .get('/events')
      .expect(401);
    expect(response.body.error.code).toBe('UNAUTHORIZED');
  });

  /**
   * What a change's own write does before it publishes: takes the transaction's id, which its events are
   * listed by. The event's row itself goes with the COMMIT.
   */
  const takeTransactionId = (manager: EntityManager) => manager.query('SELECT pg_current_xact_id()');

  itWithConcurrentSessions(
    `lists an event only once every older transaction has ended, so one committed later never sorts before those listed ${NEEDS_A_SERVER}`,
    async () => {
      const own = await createTenant(suite.app);
      await publish(own, 'employee.created', { mark: 'before' });
      await readAll(own, (events) => events.length === 1);

      // `slow` records its event first and commits last; `fast` records and commits in between.
      let commitSlow!: () => void;
      const slowMayCommit = new Promise<void>((resolve) => (commitSlow = resolve));
      let slowRecorded!: () => void;
      const slowHasRecorded = new Promise<void>((resolve) => (slowRecorded = resolve));
      const slow = suite.app.get(Database).transaction(async (manager) => {
        await takeTransactionId(manager);
        await publishMadeUp(suite.app.get(DomainEvents), manager, own.organisationId, {
          name: 'employee.created',
          data: { mark: 'slow' },
        });
        slowRecorded();
        await slowMayCommit;
      }, cliWrite());
      await slowHasRecorded;
      await publish(own, 'employee.created', { mark: 'fast' });

      // `fast` has committed, but a transaction older than it is still open: neither is listed yet.
      expect(marks((await page(own)).data)).toEqual(['before']);
      const last = (await page(own)).meta.nextAfter!;
      commitSlow();
      await slow;

      // Both follow what was already listed, in the order of their transactions, and stay in that order.
      const all = await readAll(own, (events) => events.length === 3);
      expect(marks(all)).toEqual(['before', 'slow', 'fast']);
      expect(marks((await page(own, `?after=${last}`)).data)).toEqual(['slow', 'fast']);
    },
  );

  itWithConcurrentSessions(
    `shows every event exactly once, in an order that never changes, to a reader paging while writers commit in random order ${NEEDS_A_SERVER}`,
    async () => {
      const own = await createTenant(suite.app);
      // Writers on a second instance, so their transactions never wait for the reader's connections.
      const writers = await createTestApp();
      const writersCount = 4;
      const perWriter = 30;
      const total = writersCount * perWriter;
      let writing = true;
      try {
        const write = async (writer: number) => {
          for (let n = 0; n < perWriter; n++) {
            // The event's id (a UUID v7) is made now; the commit comes after a random pause, so transactions
            // commit in another order than their ids, and overlap.
            await writers.get(Database).transaction(async (manager) => {
              await takeTransactionId(manager);
              await publishMadeUp(writers.get(DomainEvents), manager, own.organisationId, {
                name: 'skill.rated',
                data: { mark: `${writer}-${n}` },
              });
              await manager.query(`SELECT pg_sleep($1)`, [Math.random() * 0.02]);
            }, cliWrite());
          }
        };
        const allWritten = Promise.all(Array.from({ length: writersCount }, (_, writer) => write(writer))).finally(
          () => (writing = false),
        );

        const seen: FeedEvent[] = [];
        let after = '';
        let writtenAt: number | undefined;
        // Once every writer has committed, everything should be listed within moments; a skipped event never is.
        while (seen.length < total && (writtenAt === undefined || Date.now() - writtenAt < 5000)) {
          const { data, meta } = await page(own, `?limit=7${after}`);
          seen.push(...data);
          if (meta.nextAfter) after = `&after=${meta.nextAfter}`;
          if (!writing) writtenAt ??= Date.now();
          if (data.length === 0) await new Promise((resolve) => setTimeout(resolve, writing ? 5 : 50));
        }
        await allWritten;

        const seenMarks = marks(seen);
        expect(new Set(seenMarks).size).toBe(seenMarks.length);
        expect(seenMarks).toHaveLength(total);
        expect(new Set(seenMarks)).toEqual(
          new Set(Array.from({ length: total }, (_, i) => `${Math.floor(i / perWriter)}-${i % perWriter}`)),
        );
        // Read again from the start: the same events in the same order.
        expect((await readAll(own, (events) => events.length === total)).map((event) => event.id)).toEqual(
          seen.map((event) => event.id),
        );
        // Each writer's events appear in the order it wrote them.
        for (let writer = 0; writer < writersCount; writer++) {
          const own = seenMarks.filter((mark) => String(mark).startsWith(`${writer}-`));
          expect(own).toEqual(Array.from({ length: perWriter }, (_, n) => `${writer}-${n}`));
        }
      } finally {
        await writers.close();
      }
    },
  );

  describe('retention', () => {
    // Another test app may be pruning at this moment: its run holds the lock only for milliseconds.
    const run = (): Promise<NonNullable<RetentionReport>> =>
      waitUntil(async () => (await suite.app.get(RetentionJob).run()) ?? undefined, 'the retention lock is free', {
        timeoutMs: 5000,
        intervalMs: 100,
      });

    it('deletes events recorded more than EVENT_RETENTION_DAYS (30) ago with their deliveries, and keeps younger ones', async () => {
      const own = await createTenant(suite.app);
      const endpoint = (
        await as(own)
          .post('/webhooks', { url: 'https://hooks.example.com/r', events: ['employee.created'] })
          .expect(201)
      ).body.data;
      for (const mark of ['expired', 'almost', 'fresh']) await publish(own, 'employee.created', { mark });
      const events = await readAll(own, (all) => all.length === 3);
      const age = (id: string, days: number) =>
        dataSourceOf(suite.app).query(
          `UPDATE events SET created_at = now() - make_interval(days => $2) WHERE id = $1`,
          [id, days],
        );
      await age(events[0].id, 31);
      await age(events[1].id, 29);
      const deliveries = () =>
        dataSourceOf(suite.app).query(
          // By event: one endpoint's deliveries of events recorded in one millisecond tie on created_at and
          // on their ids' time prefix, while the process's event ids (UUID v7) keep their order.
          `SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY event_id`,
          [endpoint.id],
        );
      expect(await deliveries()).toHaveLength(3);

      const report = await run();
      expect(report).toEqual({
        events: { removed: expect.any(Number), more: false },
        'previous webhook secrets': { removed: expect.any(Number), more: false },
        'idempotency keys': { removed: expect.any(Number), more: false },
        'console activity, sessions, welcome links and failed sign-ins': { removed: expect.any(Number), more: false },
        // EMPLOYEE_ERASE_AFTER_DAYS is unset: nobody is erased.
        leavers: { removed: 0, more: false },
        // Every secret here is sealed as this release seals: nothing is sealed again.
        'webhook secrets re-sealed': { removed: 0, more: false },
        'single sign-on client secrets re-sealed': { removed: 0, more: false },
      });
      expect(marks(await readAll(own, () => true))).toEqual(['almost', 'fresh']);
      expect((await deliveries()).map((row: { event_id: string }) => row.event_id)).toEqual([
        events[1].id,
        events[2].id,
      ]);
      // A pruned event no longer serves as a cursor.
      await as(own).get(`/events?after=${events[0].id}`).expect(400);
    });

    itWithConcurrentSessions(
      `does nothing while another instance holds the retention lock ${NEEDS_A_SERVER}`,
      async () => {
        const own = await createTenant(suite.app);
        await publish(own, 'employee.created', { mark: 'expired' });
        const [event] = await readAll(own, (all) => all.length === 1);
        await dataSourceOf(suite.app).query(`UPDATE events SET created_at = now() - interval '31 days' WHERE id = $1`, [
          event.id,
        ]);
        const holder = new Client({ connectionString: process.env.TEST_DATABASE_URL });
        await holder.connect();
        try {
          // Held by another instance's run: a transaction-level lock, which also pins the session behind a
          // transaction pooler (a session-level one would stay on whichever server connection PgBouncer chose).
          await holder.query('BEGIN');
          await holder.query(`SELECT pg_advisory_xact_lock($1)`, [RETENTION_LOCK_KEY]);
          expect(await suite.app.get(RetentionJob).run()).toBeNull();
          // Nor can any other instance prune while the lock is held.
          expect(await readAll(own, () => true)).toEqual([event]);
          await holder.query('ROLLBACK');
        } finally {
          await holder.end();
        }
        await run();
        expect(await readAll(own, () => true)).toEqual([]);
      },
    );

    it('erases previous secrets whose overlap ended, and only those', async () => {
      const own = await createTenant(suite.app);
      const create = async (path: string) =>
        (
          await as(own)
            .post('/webhooks', { url: `https://hooks.example.com/${path}`, events: ['skill.rated'], secret: 'a' })
            .expect(201)
        ).body.data.id as string;
      const ended = await create('ended');
      const lasting = await create('lasting');
      for (const id of [ended, lasting]) {
        await as(own).post(`/webhooks/${id}/rotate-secret`, { secret: 'b', overlapSeconds: 3600 }).expect(200);
      }
      await dataSourceOf(suite.app).query(
        `UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
        [ended],
      );
      await run();
      const rows = await dataSourceOf(suite.app).query(
        `SELECT id, previous_secret_sealed IS NULL AS erased, previous_secret_expires_at IS NULL AS unset
           FROM webhook_endpoints WHERE id = ANY ($1)`,
        [[ended, lasting]],
      );
      expect(rows).toEqual(
        expect.arrayContaining([
          { id: ended, erased: true, unset: true },
          { id: lasting, erased: false, unset: false },
        ]),
      );
    });
  });

  it('is documented in the OpenAPI description with its cursor meta', async () => {
    const { body } = await apiClient(
      () => suite.app,
      () => other,
    ).get('/openapi.json');
    const operation = body.paths['/events'].get;
    expect(operation.tags).toEqual(['Events']);
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual([
      'after',
      'event',
      'limit',
    ]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401']));
    expect(body.components.schemas.CursorPaginationMeta.properties.nextAfter.nullable).toBe(true);
    expect(Object.keys(body.components.schemas.Event.properties).sort()).toEqual([
      'actor',
      'changes',
      'data',
      'event',
      'id',
      'requestId',
      'timestamp',
    ]);
  });
});
