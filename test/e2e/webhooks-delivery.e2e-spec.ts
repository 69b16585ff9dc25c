import { Body, Controller, Module, Post } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiExcludeController } from '@nestjs/swagger';
import { OrgId } from '../../src/auth/org-id.decorator';
import { Write } from '../../src/auth/write.decorator';
import { AppConfig } from '../../src/config/config';
import { Database } from '../../src/database/database';
import { newId } from '../../src/database/uuid';
import { cliWrite, WriteContext } from '../../src/database/write-context';
import { DomainEventName, DomainEvents } from '../../src/events/domain-events';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { dispatcherRounds } from '../support/dispatcher';
import { publishMadeUp } from '../support/made-up-events';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';
import {
  ReceivedRequest,
  verifySignatures,
  verifyStandardSignature,
  WebhookReceiver,
} from '../support/webhook-receiver';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Dispatching apps poll often, so tests that wait for a poll wait little. */
const FAST_POLL: Partial<AppConfig> = { webhookPollIntervalMs: 100 };

/** Publishes a domain event inside a transaction, as the feature services do. */
async function publish(
  app: NestExpressApplication,
  organisationId: string,
  name: DomainEventName,
  data: object,
  occurredAt = new Date(),
): Promise<void> {
  await app
    .get(Database)
    .transaction(
      (manager) => publishMadeUp(app.get(DomainEvents), manager, organisationId, { name, data, occurredAt }),
      cliWrite(),
    );
}

/** A test-only API call that emits an event and answers after commit, like any write of the API. */
@ApiExcludeController()
@Controller('webhook-probe')
class EmitProbeController {
  constructor(
    private readonly events: DomainEvents,
    private readonly database: Database,
  ) {}

  @Post('emit')
  async emit(
    @OrgId() organisationId: string,
    @Body() body: { name: DomainEventName; data: object },
    @Write() write: WriteContext,
  ) {
    await this.database.transaction((manager) => publishMadeUp(this.events, manager, organisationId, body), write);
    return { emitted: true };
  }
}

@Module({ controllers: [EmitProbeController] })
class EmitProbeModule {}

interface DeliveryRow {
  id: string;
  event_id: string;
  event: string;
  outcome: string | null;
  status_code: number | null;
  error: string | null;
  claimed_at: Date | null;
}

function deliveryRows(app: NestExpressApplication, endpointId: string): Promise<DeliveryRow[]> {
  return dataSourceOf(app).query(
    `SELECT id, event_id, event, outcome, status_code, error, claimed_at FROM webhook_deliveries
      WHERE endpoint_id = $1 ORDER BY created_at, id`,
    [endpointId],
  );
}

describe('webhooks: delivery', () => {
  const certificate = testCertificate();
  const trust = TrustCertificateModule.of(certificate);
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
  });
  afterAll(() => receiver.stop());

  async function register(
    app: NestExpressApplication,
    tenant: TestTenant,
    path: string,
    events: DomainEventName[],
    secret?: string,
  ): Promise<string> {
    const response = await apiClient(
      () => app,
      () => tenant,
    )
      .post('/webhooks', { url: receiver.url(path), events, ...(secret === undefined ? {} : { secret }) })
      .expect(201);
    return response.body.data.id;
  }

  const header = (received: ReceivedRequest, name: string) => received.headers[name] as string;

  describe('with a dispatching instance', () => {
    const suite = useTestApp({
      config: FAST_POLL,
      imports: [trust, EmitProbeModule],
      app: { dispatch: true },
      tenant: 'once',
    });
    const as = (who: TestTenant) =>
      apiClient(
        () => suite.app,
        () => who,
      );

    it('delivers every event type with the exact body, the headers and a signature that verifies', async () => {
      const endpointId = await register(
        suite.app,
        suite.tenant,
        '/all-events',
        ['employee.created', 'employee.updated', 'employee.deactivated', 'skill.rated', 'position.updated'],
        'endpoint-secret',
      );
      const published = [
        { name: 'employee.created', data: { id: newId(), firstName: 'Ada', title: null } },
        { name: 'employee.updated', data: { id: newId(), firstName: 'Ada', title: 'CTO' } },
        { name: 'employee.deactivated', data: { id: newId(), leftAt: '2026-01-31T09:00:00.000Z' } },
        {
          name: 'skill.rated',
          data: { employeeId: newId(), rating: { ratingId: newId(), score: 4, comment: 'ünïcode ✓' } },
        },
        { name: 'position.updated', data: { id: newId(), status: 'OPEN', requiredSkills: [] } },
      ] as const;
      const occurredAt = new Date('2026-02-01T10:11:12.345Z');
      for (const event of published)
        await publish(suite.app, suite.tenant.organisationId, event.name, event.data, occurredAt);

      const received = await receiver.waitFor('/all-events', published.length);
      const rows = await deliveryRows(suite.app, endpointId);
      for (const event of published) {
        const [arrived] = received.filter((r) => header(r, 'x-service-event') === event.name);
        expect(arrived.method).toBe('POST');
        expect(
          arrived.body.equals(
            Buffer.from(
              JSON.stringify({
                event: event.name,
                timestamp: occurredAt.toISOString(),
                data: event.data,
                actor: { type: 'cli' },
                requestId: null,
              }),
            ),
          ),
        ).toBe(true);
        expect(header(arrived, 'content-type')).toBe('application/json');
        expect(header(arrived, 'user-agent')).toMatch(/^skills-service-webhooks\//);
        expect(header(arrived, 'x-service-delivery')).toMatch(UUID);
        expect(header(arrived, 'x-service-signature')).toMatch(/^sha256=[0-9a-f]{64}$/);
        const row = rows.find((candidate) => candidate.id === header(arrived, 'x-service-delivery'));
        expect(row?.event).toBe(event.name);
        // Standard Webhooks: the event's id, the attempt's time, and a signature over both and the body.
        expect(header(arrived, 'webhook-id')).toBe(row?.event_id);
        const signedAt = Number(header(arrived, 'webhook-timestamp'));
        expect(header(arrived, 'webhook-timestamp')).toMatch(/^\d+$/);
        expect(signedAt).toBeLessThanOrEqual(Math.ceil(arrived.receivedAt / 1000));
        expect(signedAt).toBeGreaterThan(arrived.receivedAt / 1000 - 10);
        expect(header(arrived, 'webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
        expect(verifyStandardSignature(arrived, 'endpoint-secret')).toEqual({ library: true, byHand: true });
        expect(verifyStandardSignature(arrived, 'another-secret')).toEqual({ library: false, byHand: false });
      }
      expect(new Set(received.map((r) => header(r, 'x-service-delivery'))).size).toBe(published.length);
      expect(new Set(received.map((r) => header(r, 'webhook-id'))).size).toBe(published.length);

      const checks = received.map((r) => ({
        body: r.body,
        signature: header(r, 'x-service-signature'),
        secret: 'endpoint-secret',
      }));
      expect(await verifySignatures(checks)).toEqual(published.map(() => true));
      expect(await verifySignatures(checks.map((check) => ({ ...check, secret: 'another-secret' })))).toEqual(
        published.map(() => false),
      );

      await waitUntil(
        async () => (await deliveryRows(suite.app, endpointId)).every((row) => row.outcome !== null),
        'outcomes are recorded',
      );
      const log = await as(suite.tenant).get(`/webhooks/${endpointId}/deliveries`).expect(200);
      expect(log.body.data).toHaveLength(published.length);
      for (const entry of log.body.data) {
        expect(entry).toMatchObject({ status: 'delivered', statusCode: 200, error: null, redeliveryOf: null });
        expect(received.find((r) => header(r, 'x-service-delivery') === entry.deliveryId)?.headers['webhook-id']).toBe(
          entry.eventId,
        );
      }
    });

    it('signs with the empty key when the endpoint has no secret, and the signature verifies', async () => {
      await register(suite.app, suite.tenant, '/no-secret', ['skill.rated']);
      await publish(suite.app, suite.tenant.organisationId, 'skill.rated', {
        employeeId: newId(),
        rating: { score: 1 },
      });
      const [arrived] = await receiver.waitFor('/no-secret', 1);
      const check = { body: arrived.body, signature: header(arrived, 'x-service-signature') };
      expect(await verifySignatures([check, { ...check, secret: 'not-the-key' }])).toEqual([true, false]);
      expect(verifyStandardSignature(arrived)).toEqual({ library: true, byHand: true });
      expect(verifyStandardSignature(arrived, 'not-the-key')).toEqual({ library: false, byHand: false });
    });

    it('sends only to the endpoints of the organisation of the event that subscribed to it', async () => {
      const other = await createTenant(suite.app);
      const subscribed = await register(suite.app, suite.tenant, '/subscribed', ['employee.created']);
      const unsubscribed = await register(suite.app, suite.tenant, '/unsubscribed', ['employee.updated']);
      const foreign = await register(suite.app, other, '/foreign', ['employee.created']);

      await publish(suite.app, suite.tenant.organisationId, 'employee.created', { id: newId() });
      await receiver.waitFor('/subscribed', 1);
      expect(await deliveryRows(suite.app, unsubscribed)).toEqual([]);
      expect(await deliveryRows(suite.app, foreign)).toEqual([]);
      expect(await deliveryRows(suite.app, subscribed)).toHaveLength(1);
      expect(receiver.on('/unsubscribed')).toEqual([]);
      expect(receiver.on('/foreign')).toEqual([]);
    });

    it("queues one delivery per event of a change and endpoint subscribed to it, each id of its event's moment", async () => {
      const both = await register(suite.app, suite.tenant, '/fan-both', ['employee.created', 'employee.updated']);
      const updates = await register(suite.app, suite.tenant, '/fan-updates', ['employee.updated']);
      const [created, updated] = [newId(), newId()];
      await suite.app
        .get(Database)
        .transaction(
          (manager) =>
            publishMadeUp(
              suite.app.get(DomainEvents),
              manager,
              suite.tenant.organisationId,
              { name: 'employee.created', data: { id: created } },
              { name: 'employee.updated', data: { id: updated } },
            ),
          cliWrite(),
        );
      const rows: Array<{ id: string; endpoint_id: string; event_id: string; event: string; body: string }> =
        await dataSourceOf(suite.app).query(
          `SELECT d.id, d.endpoint_id, d.event_id, d.event, convert_from(e.body, 'UTF8') AS body
             FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
            WHERE d.endpoint_id = ANY ($1)`,
          [[both, updates]],
        );
      const dataId = (row: { body: string }) => (JSON.parse(row.body) as { data: { id: string } }).data.id;
      const pairs = rows.map((row) => [dataId(row), row.event, row.endpoint_id]);
      expect(pairs).toHaveLength(3);
      expect(pairs).toEqual(
        expect.arrayContaining([
          [created, 'employee.created', both],
          [updated, 'employee.updated', both],
          [updated, 'employee.updated', updates],
        ]),
      );
      // A UUID v7 of its event's moment: the event id's first 8 bytes (time and version), a random tail.
      for (const row of rows) {
        expect(row.id).toMatch(UUID);
        expect(row.id.slice(0, 18)).toBe(row.event_id.slice(0, 18));
        expect(row.id).not.toBe(row.event_id);
      }
      await receiver.waitFor('/fan-updates', 1);
    });

    it('records nothing, neither the event nor its deliveries, for a change that rolls back', async () => {
      const endpointId = await register(suite.app, suite.tenant, '/rolled-back', ['employee.created']);
      await expect(
        suite.app.get(Database).transaction(async (manager) => {
          await publishMadeUp(suite.app.get(DomainEvents), manager, suite.tenant.organisationId, {
            name: 'employee.created',
            data: { id: 'rolled-back' },
          });
          throw new Error('the change fails after its event');
        }, cliWrite()),
      ).rejects.toThrow('the change fails after its event');
      expect(await deliveryRows(suite.app, endpointId)).toEqual([]);
      const events = () =>
        dataSourceOf(suite.app).query(
          `SELECT convert_from(body, 'UTF8')::jsonb -> 'data' AS data FROM events WHERE organisation_id = $1`,
          [suite.tenant.organisationId],
        );
      expect((await events()).map((row: { data: object }) => row.data)).not.toContainEqual({ id: 'rolled-back' });

      // A later committed event arrives alone: nothing of the rolled-back one was left to send.
      await publish(suite.app, suite.tenant.organisationId, 'employee.created', { id: 'committed' });
      const [arrived] = await receiver.waitFor('/rolled-back', 1);
      expect(JSON.parse(arrived.body.toString()).data).toEqual({ id: 'committed' });
      expect(await deliveryRows(suite.app, endpointId)).toHaveLength(1);
      expect((await events()).map((row: { data: object }) => row.data)).toContainEqual({ id: 'committed' });
    });

    it('does not make the API call wait for a receiver that takes 3 s to answer', async () => {
      receiver.behave('/slow', { delayMs: 3000 });
      const endpointId = await register(suite.app, suite.tenant, '/slow', ['position.updated']);
      const started = Date.now();
      await as(suite.tenant)
        .post('/webhook-probe/emit', { name: 'position.updated', data: { id: 'slow' } })
        .expect(201);
      expect(Date.now() - started).toBeLessThan(1000);
      await receiver.waitFor('/slow', 1);
      await waitUntil(
        async () => (await deliveryRows(suite.app, endpointId))[0]?.outcome === 'delivered',
        'the slow delivery is recorded',
      );
    });

    it('makes exactly one attempt at a receiver that answers 500 and records it', async () => {
      receiver.behave('/failing', { status: 500 });
      const own = await createTenant(suite.app);
      const endpointId = await register(suite.app, own, '/failing', ['skill.rated']);
      await publish(suite.app, own.organisationId, 'skill.rated', { employeeId: newId(), rating: { score: 2 } });
      await receiver.waitFor('/failing', 1);
      await waitUntil(
        async () => (await deliveryRows(suite.app, endpointId))[0]?.outcome === 'failed',
        'the failure is recorded',
      );
      expect(await deliveryRows(suite.app, endpointId)).toEqual([
        expect.objectContaining({ outcome: 'failed', status_code: 500 }),
      ]);

      // Let the dispatcher claim again (a later delivery goes through it, then polls), then count again.
      await register(suite.app, own, '/after-failing', ['position.updated']);
      await publish(suite.app, own.organisationId, 'position.updated', { id: 'later' });
      await receiver.waitFor('/after-failing', 1);
      await dispatcherRounds(suite.app, 2);
      expect(receiver.on('/failing')).toHaveLength(1);
    });

    it('delivers the events of the real API calls: employee.created, .updated, .deactivated and skill.rated', async () => {
      const api = await createTenant(suite.app);
      await register(
        suite.app,
        api,
        '/api-events',
        ['employee.created', 'employee.updated', 'employee.deactivated', 'skill.rated'],
        'api-secret',
      );
      const { post, patch, del } = as(api);

      const created = (
        await post('/employees', {
          personnelNumber: 'W-1',
          firstName: 'Grace',
          lastName: 'Hopper',
          businessEmail: 'grace@example.com',
        }).expect(201)
      ).body.data;
      const updated = (await patch(`/employees/${created.id}`, { title: 'Rear Admiral' }).expect(200)).body.data;
      const skill = (await post('/skills', { name: 'COBOL' }).expect(201)).body.data;
      const rating = (
        await post(`/employees/${created.id}/ratings`, {
          skillId: skill.id,
          score: 5,
          ratingType: 'MANAGER_EVALUATION',
        }).expect(201)
      ).body.data;
      const deactivated = (await del(`/employees/${created.id}`).expect(200)).body.data;

      const received = await receiver.waitFor('/api-events', 4);
      const bodyOf = (event: string) =>
        JSON.parse(received.find((r) => header(r, 'x-service-event') === event)!.body.toString());
      expect(bodyOf('employee.created')).toEqual({
        event: 'employee.created',
        timestamp: expect.any(String),
        data: created,
        actor: { type: 'api_key', id: api.keyId },
        requestId: expect.any(String),
      });
      expect(bodyOf('employee.updated')).toEqual({
        event: 'employee.updated',
        timestamp: expect.any(String),
        data: updated,
        changes: { title: { previous: null, current: 'Rear Admiral' } },
        actor: { type: 'api_key', id: api.keyId },
        requestId: expect.any(String),
      });
      expect(bodyOf('skill.rated')).toEqual({
        event: 'skill.rated',
        timestamp: rating.createdAt,
        data: { employeeId: created.id, rating },
        actor: { type: 'api_key', id: api.keyId },
        requestId: expect.any(String),
      });
      expect(bodyOf('employee.deactivated')).toMatchObject({
        event: 'employee.deactivated',
        timestamp: deactivated.leftAt,
        data: { id: created.id, leftAt: deactivated.leftAt },
      });
      const checks = received.map((r) => ({
        body: r.body,
        signature: header(r, 'x-service-signature'),
        secret: 'api-secret',
      }));
      expect(await verifySignatures(checks)).toEqual([true, true, true, true]);
    });
  });

  describe('across restarts', () => {
    it('delivers, once a dispatching instance starts, what was committed while none ran, and what a crash left mid-send', async () => {
      const quiet = await createTestApp({}, [trust]);
      const tenant = await createTenant(quiet);
      const endpointId = await register(quiet, tenant, '/after-restart', ['employee.created']);
      await publish(quiet, tenant.organisationId, 'employee.created', { id: 'committed-while-stopped' });
      // A row claimed long ago and never finished: its dispatcher died while sending.
      const orphanEvent = newId();
      await dataSourceOf(quiet).query(
        `INSERT INTO events (id, organisation_id, event, occurred_at, body, created_at)
         VALUES ($1, $2, 'employee.created', now(), $3, now())`,
        [
          orphanEvent,
          tenant.organisationId,
          Buffer.from('{"event":"employee.created","timestamp":"2026-01-01T00:00:00.000Z","data":{"id":"orphan"}}'),
        ],
      );
      await dataSourceOf(quiet).query(
        `INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, created_at, claimed_at)
         VALUES ($1, $2, $3, $4, 'employee.created', now(), now() - interval '1 hour')`,
        [newId(), tenant.organisationId, endpointId, orphanEvent],
      );
      expect((await deliveryRows(quiet, endpointId)).map((row) => row.outcome)).toEqual([null, null]);
      await quiet.close();
      expect(receiver.on('/after-restart')).toEqual([]);

      const restarted = await createTestApp(FAST_POLL, [trust], { dispatch: true });
      try {
        const received = await receiver.waitFor('/after-restart', 2);
        expect(received.map((r) => JSON.parse(r.body.toString()).data.id).sort()).toEqual([
          'committed-while-stopped',
          'orphan',
        ]);
        // Sent again after the crash, it carries its event's id: a receiver that saw it before can drop it.
        const orphanReceived = received.find((r) => JSON.parse(r.body.toString()).data.id === 'orphan');
        expect(orphanReceived?.headers['webhook-id']).toBe(orphanEvent);
        await waitUntil(
          async () => (await deliveryRows(restarted, endpointId)).every((row) => row.outcome === 'delivered'),
          'both are recorded',
        );
      } finally {
        await restarted.close();
      }
    });

    it('finishes the deliveries in flight before app.close() returns', async () => {
      receiver.behave('/in-flight', { delayMs: 1500 });
      const app = await createTestApp(FAST_POLL, [trust], { dispatch: true });
      const tenant = await createTenant(app);
      const endpointId = await register(app, tenant, '/in-flight', ['employee.updated']);
      await publish(app, tenant.organisationId, 'employee.updated', { id: 'in-flight' });
      await receiver.waitFor('/in-flight', 1);
      const probe = await createTestApp();
      try {
        await app.close();
        const [row] = await deliveryRows(probe, endpointId);
        expect(row).toMatchObject({ outcome: 'delivered', status_code: 200 });
      } finally {
        await probe.close();
      }
    });
  });

  describe('with two instances on one database', () => {
    it('delivers each event exactly once per endpoint', async () => {
      const first = await createTestApp(FAST_POLL, [trust], { dispatch: true });
      const second = await createTestApp(FAST_POLL, [trust], { dispatch: true });
      try {
        const tenant = await createTenant(first);
        const endpoints = [
          await register(first, tenant, '/pair-a', ['employee.created']),
          await register(second, tenant, '/pair-b', ['employee.created']),
        ];
        const count = 40;
        await Promise.all(
          Array.from({ length: count }, (_, i) =>
            publish(i % 2 ? second : first, tenant.organisationId, 'employee.created', { n: i }),
          ),
        );
        for (const [index, path] of ['/pair-a', '/pair-b'].entries()) {
          const received = await receiver.waitFor(path, count).catch(async (error: Error) => {
            const rows = await deliveryRows(first, endpoints[index]);
            const log = rows.map(
              (row) => `${row.outcome ?? (row.claimed_at ? 'claimed' : 'pending')} ${row.error ?? ''}`,
            );
            throw new Error(`${error.message}; delivery log: ${log.join(', ')}`);
          });
          expect(received.map((r) => JSON.parse(r.body.toString()).data.n).sort((a, b) => a - b)).toEqual(
            Array.from({ length: count }, (_, i) => i),
          );
        }
        // Both dispatchers claim again before the final count.
        await Promise.all([dispatcherRounds(first, 2), dispatcherRounds(second, 2)]);
        for (const path of ['/pair-a', '/pair-b']) {
          const received = receiver.on(path);
          expect(received).toHaveLength(count);
          expect(new Set(received.map((r) => header(r, 'x-service-delivery'))).size).toBe(count);
        }
        for (const endpointId of endpoints) {
          expect((await deliveryRows(first, endpointId)).filter((row) => row.outcome === 'delivered')).toHaveLength(
            count,
          );
        }
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    });
  });
});
