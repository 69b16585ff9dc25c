import { createHmac } from 'node:crypto';
import { Database } from '../../src/database/database';
import { newId } from '../../src/database/uuid';
import { cliWrite } from '../../src/database/write-context';
import { DomainEventName, DomainEvents } from '../../src/events/domain-events';
import { apiClient } from '../support/api-client';
import { createTenant, createTestApp, dataSourceOf } from '../support/app';
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

interface LogEntry {
  deliveryId: string;
  eventId: string;
  event: string;
  status: string;
  statusCode: number | null;
  redeliveryOf: string | null;
}

const header = (received: ReceivedRequest, name: string) => received.headers[name] as string;

describe('webhooks: redelivery, recovery and secret rotation', () => {
  const certificate = testCertificate();
  // No poll within the tests: whatever arrives was sent because a commit nudged the dispatcher.
  const suite = useTestApp({
    config: { webhookPollIntervalMs: 3_600_000 },
    imports: [TrustCertificateModule.of(certificate)],
    app: { dispatch: true },
    tenant: 'once',
  });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
  });
  afterAll(async () => {
    await receiver.stop();
  });

  const api = () =>
    apiClient(
      () => suite.app,
      () => suite.tenant,
    );

  const publish = (name: DomainEventName, data: object) =>
    suite.app
      .get(Database)
      .transaction(
        (manager) => publishMadeUp(suite.app.get(DomainEvents), manager, suite.tenant.organisationId, { name, data }),
        cliWrite(),
      );

  async function register(path: string, secret?: string): Promise<string> {
    const body = { url: receiver.url(path), events: ['skill.rated'], ...(secret === undefined ? {} : { secret }) };
    return (await api().post('/webhooks', body).expect(201)).body.data.id;
  }

  const log = async (endpointId: string): Promise<LogEntry[]> =>
    (await api().get(`/webhooks/${endpointId}/deliveries?limit=100`).expect(200)).body.data;

  /** Waits until no delivery of the endpoint is pending, and answers its log. */
  async function settled(endpointId: string, count: number): Promise<LogEntry[]> {
    let entries: LogEntry[] = [];
    await waitUntil(async () => {
      entries = await log(endpointId);
      return entries.length === count && entries.every((entry) => entry.status !== 'pending');
    }, `${count} deliveries of ${endpointId} are settled`);
    return entries;
  }

  describe('redelivery', () => {
    it("sends a delivered event again: the original's exact bytes, the same webhook-id, a new X-Service-Delivery", async () => {
      const endpointId = await register('/redeliver-ok', 'redeliver-secret');
      await publish('skill.rated', { employeeId: newId(), rating: { score: 3, comment: 'ünï ✓' } });
      const [first] = await receiver.waitFor('/redeliver-ok', 1);
      const [original] = await settled(endpointId, 1);
      expect(original).toMatchObject({ status: 'delivered', redeliveryOf: null });
      expect(header(first, 'webhook-id')).toBe(original.eventId);

      const queued = await api()
        .post(`/webhooks/${endpointId}/deliveries/${original.deliveryId}/redeliver`, {})
        .expect(202);
      expect(queued.body.data).toMatchObject({
        status: 'pending',
        eventId: original.eventId,
        redeliveryOf: original.deliveryId,
      });

      const [, again] = await receiver.waitFor('/redeliver-ok', 2);
      expect(again.body.equals(first.body)).toBe(true);
      expect(header(again, 'webhook-id')).toBe(header(first, 'webhook-id'));
      expect(header(again, 'x-service-delivery')).toBe(queued.body.data.deliveryId);
      expect(header(again, 'x-service-delivery')).not.toBe(header(first, 'x-service-delivery'));
      expect(header(again, 'x-service-event')).toBe('skill.rated');
      expect(Number(header(again, 'webhook-timestamp'))).toBeGreaterThanOrEqual(
        Number(header(first, 'webhook-timestamp')),
      );
      expect(verifyStandardSignature(again, 'redeliver-secret')).toEqual({ library: true, byHand: true });
      expect(
        await verifySignatures([
          { body: again.body, signature: header(again, 'x-service-signature'), secret: 'redeliver-secret' },
        ]),
      ).toEqual([true]);

      const entries = await settled(endpointId, 2);
      expect(entries[0]).toMatchObject({
        deliveryId: queued.body.data.deliveryId,
        eventId: original.eventId,
        status: 'delivered',
        statusCode: 200,
        redeliveryOf: original.deliveryId,
      });

      // The event in the feed is what both requests carried, under the id they both named.
      let listed: { id: string; event: string; timestamp: string; data: unknown } | undefined;
      await waitUntil(async () => {
        const feed = await api().get('/events?event=skill.rated&limit=100').expect(200);
        listed = feed.body.data.find((event: { id: string }) => event.id === original.eventId);
        return listed !== undefined;
      }, 'the event is listed');
      const { id, ...body } = listed!;
      expect(id).toBe(header(again, 'webhook-id'));
      expect(body).toEqual(JSON.parse(first.body.toString('utf8')));
    });

    it('sends a failed event again, and the webhook.test ping too', async () => {
      receiver.behave('/redeliver-failed', { status: 503 });
      const endpointId = await register('/redeliver-failed');
      await publish('skill.rated', { employeeId: newId(), rating: { score: 1 } });
      const [failed] = await settled(endpointId, 1);
      expect(failed).toMatchObject({ status: 'failed', statusCode: 503 });

      receiver.behave('/redeliver-failed', { status: 200 });
      await api().post(`/webhooks/${endpointId}/deliveries/${failed.deliveryId}/redeliver`, {}).expect(202);
      // The redelivery goes out with the dispatcher, the ping during its request: one after the other.
      await receiver.waitFor('/redeliver-failed', 2);
      const ping = (await api().post(`/webhooks/${endpointId}/test`, {}).expect(200)).body.data;
      await api().post(`/webhooks/${endpointId}/deliveries/${ping.deliveryId}/redeliver`, {}).expect(202);

      const received = await receiver.waitFor('/redeliver-failed', 4);
      expect(received[1].body.equals(received[0].body)).toBe(true);
      expect(received[3].body.equals(received[2].body)).toBe(true);
      expect(header(received[3], 'webhook-id')).toBe(ping.eventId);
      expect(header(received[3], 'x-service-event')).toBe('webhook.test');
      const entries = await settled(endpointId, 4);
      expect(entries.map((entry) => [entry.event, entry.status, entry.redeliveryOf])).toEqual([
        ['webhook.test', 'delivered', ping.deliveryId],
        ['webhook.test', 'delivered', null],
        ['skill.rated', 'delivered', failed.deliveryId],
        ['skill.rated', 'failed', null],
      ]);
    });

    it('goes through the same address rules as first deliveries: refused to a loopback address by default', async () => {
      const strict = await createTestApp(
        { webhookAllowPrivateNetworks: false, webhookPollIntervalMs: 3_600_000 },
        [TrustCertificateModule.of(certificate)],
        { dispatch: true },
      );
      try {
        const own = await createTenant(strict);
        const { post, get } = apiClient(
          () => strict,
          () => own,
        );
        const endpointId = (
          await post('/webhooks', { url: receiver.url('/strict'), events: ['skill.rated'] }).expect(201)
        ).body.data.id;
        const ping = (await post(`/webhooks/${endpointId}/test`, {}).expect(200)).body.data;
        expect(ping.status).toBe('refused');
        const again = (await post(`/webhooks/${endpointId}/deliveries/${ping.deliveryId}/redeliver`, {}).expect(202))
          .body.data;
        await waitUntil(async () => {
          const entries = (await get(`/webhooks/${endpointId}/deliveries`)).body.data as LogEntry[];
          return entries.find((entry) => entry.deliveryId === again.deliveryId)?.status === 'refused';
        }, 'the redelivery is refused');
        expect(receiver.on('/strict')).toEqual([]);
      } finally {
        await strict.close();
      }
    });
  });

  describe('recovery', () => {
    it('queues exactly the events whose latest delivery since the time failed, and only once', async () => {
      receiver.behave('/recover', { status: 500 });
      const endpointId = await register('/recover', 'recover-secret');
      for (const mark of ['failed', 'pending-again', 'redelivered', 'too-old']) {
        await publish('skill.rated', { employeeId: newId(), rating: { mark } });
      }
      const markOf = (entry: LogEntry, received: ReceivedRequest[]) =>
        JSON.parse(received.find((r) => header(r, 'webhook-id') === entry.eventId)!.body.toString()).data.rating.mark;
      const first = await settled(endpointId, 4);
      const received = receiver.on('/recover');
      const byMark = new Map(first.map((entry) => [markOf(entry, received), entry]));
      expect(first.every((entry) => entry.status === 'failed')).toBe(true);

      // 'redelivered': its latest delivery succeeded.
      receiver.behave('/recover', { status: 200 });
      await api()
        .post(`/webhooks/${endpointId}/deliveries/${byMark.get('redelivered')!.deliveryId}/redeliver`, {})
        .expect(202);
      await settled(endpointId, 5);
      // 'pending-again': its latest delivery is being sent (claimed by a dispatcher a moment ago).
      await dataSourceOf(suite.app).query(
        `INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, redelivery_of, created_at, claimed_at)
         SELECT $1, organisation_id, endpoint_id, event_id, event, id, now(), now() FROM webhook_deliveries WHERE id = $2`,
        [newId(), byMark.get('pending-again')!.deliveryId],
      );
      // 'too-old': it failed before `since`.
      await dataSourceOf(suite.app).query(
        `UPDATE webhook_deliveries SET created_at = now() - interval '2 hours' WHERE id = $1`,
        [byMark.get('too-old')!.deliveryId],
      );

      const since = new Date(Date.now() - 3600_000).toISOString();
      const response = await api().post(`/webhooks/${endpointId}/recover`, { since }).expect(202);
      expect(response.body).toEqual({ success: true, data: { queued: 1 } });
      const [again] = (await receiver.waitFor('/recover', 6)).slice(5);
      expect(header(again, 'webhook-id')).toBe(byMark.get('failed')!.eventId);
      expect(
        again.body.equals(received.find((r) => header(r, 'webhook-id') === byMark.get('failed')!.eventId)!.body),
      ).toBe(true);
      expect(verifyStandardSignature(again, 'recover-secret')).toEqual({ library: true, byHand: true });
      const entries = await log(endpointId);
      expect(entries.find((entry) => entry.deliveryId === header(again, 'x-service-delivery'))).toMatchObject({
        eventId: byMark.get('failed')!.eventId,
        redeliveryOf: byMark.get('failed')!.deliveryId,
      });

      // Its latest delivery is no longer a failure: a second recovery finds nothing.
      await waitUntil(
        async () => (await log(endpointId)).filter((entry) => entry.status === 'pending').length === 1,
        'settled',
      );
      expect((await api().post(`/webhooks/${endpointId}/recover`, { since }).expect(202)).body.data).toEqual({
        queued: 0,
      });
    });

    it('queues a recovery once when two run at the same time', async () => {
      receiver.behave('/recover-race', { status: 500 });
      const endpointId = await register('/recover-race');
      for (let n = 0; n < 3; n++) await publish('skill.rated', { employeeId: newId(), rating: { n } });
      await settled(endpointId, 3);
      const since = new Date(Date.now() - 60_000).toISOString();
      const results = await Promise.all(
        [1, 2].map(
          async () => (await api().post(`/webhooks/${endpointId}/recover`, { since }).expect(202)).body.data.queued,
        ),
      );
      expect(results.sort()).toEqual([0, 3]);
    });
  });

  describe('secret rotation', () => {
    const signatures = (received: ReceivedRequest) => header(received, 'webhook-signature').split(' ');
    const byHand = (received: ReceivedRequest, secret: string) =>
      `v1,${createHmac('sha256', secret)
        .update(`${header(received, 'webhook-id')}.${header(received, 'webhook-timestamp')}.`)
        .update(received.body)
        .digest('base64')}`;

    async function rotateThenDeliver(path: string, from: string | undefined, overlapSeconds: number) {
      const endpointId = await register(path, from);
      await api().post(`/webhooks/${endpointId}/rotate-secret`, { secret: 'new-secret', overlapSeconds }).expect(200);
      await publish('skill.rated', { employeeId: newId(), rating: { path } });
      const [received] = await receiver.waitFor(path, 1);
      return { endpointId, received };
    }

    it('with overlap 0 signs with the new secret alone, at once', async () => {
      const { received } = await rotateThenDeliver('/rotate-0', 'old-secret', 0);
      expect(signatures(received)).toEqual([byHand(received, 'new-secret')]);
      expect(verifyStandardSignature(received, 'new-secret')).toEqual({ library: true, byHand: true });
      expect(verifyStandardSignature(received, 'old-secret')).toEqual({ library: false, byHand: false });
      const xService = { body: received.body, signature: header(received, 'x-service-signature') };
      expect(
        await verifySignatures([
          { ...xService, secret: 'new-secret' },
          { ...xService, secret: 'old-secret' },
        ]),
      ).toEqual([true, false]);
    });

    it('signs with the new secret at once what was already queued behind a slow receiver', async () => {
      const path = '/rotate-queued';
      const endpointId = await register(path, 'old-secret');
      // Holds its answers until the secret is rotated: 4 go at a time (WEBHOOK_ENDPOINT_CONCURRENCY), the other 4
      // wait in the dispatcher's queue. (A 300 ms delay let a slow rotation on a loaded machine come after them.)
      let answer!: () => void;
      receiver.behave(path, { until: new Promise<void>((resolve) => (answer = resolve)) });
      await suite.app.get(Database).transaction(async (manager) => {
        for (let i = 0; i < 8; i++) {
          await publishMadeUp(suite.app.get(DomainEvents), manager, suite.tenant.organisationId, {
            name: 'skill.rated',
            data: { employeeId: newId(), rating: { path, i } },
          });
        }
      }, cliWrite());
      await receiver.waitFor(path, 4);
      await api()
        .post(`/webhooks/${endpointId}/rotate-secret`, { secret: 'new-secret', overlapSeconds: 0 })
        .expect(200);
      const rotatedAt = Date.now();
      answer();

      const after = (await receiver.waitFor(path, 8)).filter((received) => received.receivedAt >= rotatedAt);
      expect(after).toHaveLength(4);
      const signedWith = (secret: string) =>
        verifySignatures(
          after.map((received) => ({
            body: received.body,
            signature: header(received, 'x-service-signature'),
            secret,
          })),
        );
      expect(await signedWith('new-secret')).toEqual([true, true, true, true]);
      await settled(endpointId, 8);
    });

    it('during an overlap carries two signatures, the new secret first, and X-Service-Signature only the new one', async () => {
      const { received } = await rotateThenDeliver('/rotate-overlap', 'old-secret', 3600);
      expect(signatures(received)).toEqual([byHand(received, 'new-secret'), byHand(received, 'old-secret')]);
      expect(verifyStandardSignature(received, 'new-secret')).toEqual({ library: true, byHand: true });
      expect(verifyStandardSignature(received, 'old-secret')).toEqual({ library: true, byHand: true });
      expect(verifyStandardSignature(received, 'third-secret')).toEqual({ library: false, byHand: false });
      const xService = { body: received.body, signature: header(received, 'x-service-signature') };
      expect(
        await verifySignatures([
          { ...xService, secret: 'new-secret' },
          { ...xService, secret: 'old-secret' },
        ]),
      ).toEqual([true, false]);
    });

    it('keeps signing for a receiver that had no secret yet: the empty key is the previous one', async () => {
      const { received } = await rotateThenDeliver('/rotate-from-none', undefined, 3600);
      expect(signatures(received)).toEqual([byHand(received, 'new-secret'), byHand(received, '')]);
      expect(verifyStandardSignature(received)).toEqual({ library: true, byHand: true });
    });

    it('stops signing with the previous secret when the overlap ends, before retention erases it', async () => {
      const endpointId = await register('/rotate-expired', 'old-secret');
      await api()
        .post(`/webhooks/${endpointId}/rotate-secret`, { secret: 'new-secret', overlapSeconds: 3600 })
        .expect(200);
      await dataSourceOf(suite.app).query(
        `UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 millisecond' WHERE id = $1`,
        [endpointId],
      );
      await publish('skill.rated', { employeeId: newId(), rating: { expired: true } });
      const [received] = await receiver.waitFor('/rotate-expired', 1);
      expect(signatures(received)).toEqual([byHand(received, 'new-secret')]);
      expect(verifyStandardSignature(received, 'old-secret')).toEqual({ library: false, byHand: false });
    });
  });
});
