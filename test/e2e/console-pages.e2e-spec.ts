import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ActivityLog } from '../../src/audit/activity-log';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { escapeHtml } from '../../src/console/http/html';
import { cliWrite } from '../../src/database/write-context';
import { PaginationQuery } from '../../src/pagination/pagination';
import { WebhooksService } from '../../src/webhooks/webhooks.service';
import { createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { Agent, consolePerson, ConsolePerson } from '../support/console';
import { HangingReceiver } from '../support/hanging-receiver';
import { createEmployee } from '../support/people.factory';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';
import { WebhookReceiver } from '../support/webhook-receiver';

const certificate = testCertificate();
const suite = useTestApp({ imports: [TrustCertificateModule.of(certificate)], tenant: 'none' });
let tenant: TestTenant;
let admin: ConsolePerson;
let viewer: ConsolePerson;

beforeAll(async () => {
  tenant = await createTenant(suite.app, 'Pages');
  admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
  viewer = await consolePerson(suite.app, tenant.organisationId, 'viewer');
});

/** A form sent from the console's page, then the page its 303 leads to (where a flash is shown once). */
async function submit(agent: Agent, path: string, form: Record<string, string | string[]>) {
  const response = await agent.post(path).type('form').send(form);
  expect(response.status).toBe(303);
  return agent.get(response.headers.location).expect(200);
}

/** The value a page shows once in its read-only field. */
function revealed(page: string): string | undefined {
  return /<input id="revealed" type="text" readonly value="([^"]*)"/.exec(page)?.[1];
}

const api = (key: string) => ({
  get: (path: string) => request(suite.app.getHttpServer()).get(`/api/v1${path}`).set('Authorization', `Bearer ${key}`),
  post: (path: string, body: object) =>
    request(suite.app.getHttpServer()).post(`/api/v1${path}`).set('Authorization', `Bearer ${key}`).send(body),
});

function pageOf(page: number): PaginationQuery {
  return Object.assign(new PaginationQuery(), { page, limit: 20 });
}

async function activityActions(organisationId: string): Promise<string[]> {
  return (await suite.app.get(ActivityLog).page(organisationId, {})).entries.map(
    ({ action, target }) => `${action}: ${target}`,
  );
}

describe('API keys', () => {
  it('creates a key with its name, scopes and expiry, shown once, which works on the API with those scopes only', async () => {
    const page = await submit(admin.agent, '/console/api-keys', { name: 'reader', scopes: ['read'], expires: '30' });
    const key = revealed(page.text)!;
    expect(key).toMatch(/^sk_/);
    expect(page.text).toContain('<label for="revealed">New API key</label>');
    expect((await admin.agent.get('/console/api-keys').expect(200)).text).not.toContain(key);

    await api(key).get('/skills').expect(200);
    await api(key).post('/skills', { name: 'Written by a reader' }).expect(403);
    const [summary] = (await suite.app.get(ApiKeysService).list(tenant.organisationId)).filter(
      (k) => k.name === 'reader',
    );
    expect(summary.scopes).toEqual(['read']);
    const days = (summary.expiresAt!.getTime() - summary.createdAt.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(30, 2);
    expect(await activityActions(tenant.organisationId)).toContain(`key created: reader (${summary.id})`);
  });

  it('lists keys with Name, Scopes, Created, Expires, Last used and Status, and never a key or its hash', async () => {
    const page = (await admin.agent.get('/console/api-keys').expect(200)).text;
    for (const column of ['Name', 'Scopes', 'Created', 'Expires', 'Last used', 'Status']) {
      expect(page).toContain(`<th scope="col">${column}</th>`);
    }
    expect(page).toContain('>Create API key</button>');
    expect(page).not.toContain(tenant.key);
  });

  it('refuses a key without scopes or with an unknown expiry, back on the form, naming what is wrong', async () => {
    const noScopes = await submit(admin.agent, '/console/api-keys', { name: 'none', expires: 'never' });
    expect(noScopes.text).toContain('Scopes are one or more of');
    expect(noScopes.text).toContain('<h1>Create API key</h1>');
    const badExpiry = await submit(admin.agent, '/console/api-keys', { name: 'odd', scopes: 'read', expires: '12' });
    expect(badExpiry.text).toContain('Expires is never or 7, 30, 90, 365 days');
  });

  it('revokes a key after "Revoke key", refused by the API within 5 s, and records it', async () => {
    const created = await suite.app.get(ApiKeysService).create(tenant.organisationId, { name: 'short-lived' });
    await api(created.key).get('/skills').expect(200);
    const confirm = await admin.agent.get(`/console/api-keys/${created.id}/revoke`).expect(200);
    expect(confirm.text).toContain('>Revoke key</button>');
    await submit(admin.agent, `/console/api-keys/${created.id}/revoke`, {});
    await waitUntil(async () => (await api(created.key).get('/skills')).status === 401, 'the revoked key is refused', {
      timeoutMs: 5000,
      intervalMs: 200,
    });
    expect(await activityActions(tenant.organisationId)).toContain(`key revoked: short-lived (${created.id})`);
  });

  it('answers 404 for another organisation’s key, which keeps working', async () => {
    const other = await createTenant(suite.app, 'Other keys');
    await admin.agent.get(`/console/api-keys/${other.keyId}/revoke`).expect(404);
    await admin.agent.post(`/console/api-keys/${other.keyId}/revoke`).expect(404);
    await admin.agent.post('/console/api-keys/not-a-uuid/revoke').expect(404);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await api(other.key).get('/skills').expect(200);
  });

  it('shows a viewer no create or revoke, and refuses their forged changes', async () => {
    const page = (await viewer.agent.get('/console/api-keys').expect(200)).text;
    expect(page).not.toContain('Create API key');
    expect(page).not.toContain('>Revoke</button>');
    await viewer.agent.get('/console/api-keys/new').expect(403);
    await viewer.agent.get(`/console/api-keys/${tenant.keyId}/revoke`).expect(403);
    await viewer.agent.post('/console/api-keys').type('form').send({ name: 'forged', scopes: 'read' }).expect(403);
    await viewer.agent.post(`/console/api-keys/${tenant.keyId}/revoke`).expect(403);
    const keys = await suite.app.get(ApiKeysService).list(tenant.organisationId);
    expect(keys.find((key) => key.name === 'forged')).toBeUndefined();
    expect(keys.find((key) => key.id === tenant.keyId)?.revokedAt).toBeNull();
  });

  it('refuses a change from another site, whatever its cookie', async () => {
    await admin.agent
      .post('/console/api-keys')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ name: 'cross-site', scopes: 'read', expires: 'never' })
      .expect(403);
    await admin.agent.post(`/console/api-keys/${tenant.keyId}/revoke`).set('Sec-Fetch-Site', 'cross-site').expect(403);
    const keys = await suite.app.get(ApiKeysService).list(tenant.organisationId);
    expect(keys.find((key) => key.name === 'cross-site')).toBeUndefined();
    expect(keys.find((key) => key.id === tenant.keyId)?.revokedAt).toBeNull();
  });
});

describe('webhooks', () => {
  let receiver: WebhookReceiver;
  /** Answers 500 with a 3000-byte body: more than the 1 KiB kept. */
  let verbose: Server;
  let verboseUrl: string;
  const longAnswer = 'x'.repeat(1000) + 'é'.repeat(1000);

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
    verbose = createServer({ key: certificate.key, cert: certificate.cert }, (incoming, response) => {
      incoming.resume();
      incoming.on('end', () => response.writeHead(500, { 'Content-Type': 'text/plain' }).end(longAnswer));
    });
    await new Promise<void>((resolve) => verbose.listen(0, '127.0.0.1', resolve));
    verboseUrl = `https://127.0.0.1:${(verbose.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await receiver.stop();
    verbose.closeAllConnections();
    await new Promise<void>((resolve) => verbose.close(() => resolve()));
  });

  async function endpointOf(url: string): Promise<string> {
    const endpoints = await suite.app.get(WebhooksService).list(tenant.organisationId);
    return endpoints.find((endpoint) => endpoint.url === url)!.id;
  }

  it('adds an endpoint through the API’s rules, and never shows its secret', async () => {
    const url = receiver.url('/console-added');
    const refused = await submit(admin.agent, '/console/webhooks', {
      url: 'http://plain.example/hook',
      events: 'skill.rated',
    });
    expect(refused.text).toContain('url must be an absolute https URL');
    const added = await submit(admin.agent, '/console/webhooks', {
      url,
      events: ['employee.created', 'skill.rated'],
      secret: 'a secret never shown',
    });
    expect(added.text).toContain(`Added ${url}`);
    const id = await endpointOf(url);
    const page = (await admin.agent.get(`/console/webhooks/${id}`).expect(200)).text;
    expect(page).toContain('employee.created, skill.rated');
    expect(page).not.toContain('a secret never shown');
    expect(await activityActions(tenant.organisationId)).toContain(`endpoint added: ${url}`);
  });

  it('sends a test event and shows its delivery: the exact body sent and the first 1 KiB of the answer', async () => {
    await submit(admin.agent, '/console/webhooks', { url: verboseUrl, events: 'skill.rated' });
    const id = await endpointOf(verboseUrl);
    const afterTest = await submit(admin.agent, `/console/webhooks/${id}/test`, {});
    expect(afterTest.text).toContain('Test event sent: failed (HTTP 500)');
    const [delivery] = (await suite.app.get(WebhooksService).listDeliveries(tenant.organisationId, id, pageOf(1)))
      .items;
    const detail = await suite.app.get(WebhooksService).getDelivery(tenant.organisationId, id, delivery.deliveryId);
    expect(detail.responseExcerpt).toEqual(Buffer.from(longAnswer).subarray(0, 1024));
    const body = JSON.parse(detail.body.toString('utf8'));
    expect(body).toMatchObject({ event: 'webhook.test', data: { webhookId: id, url: verboseUrl } });
    expect(body.actor).toEqual({ type: 'console', id: admin.id });

    const page = (await admin.agent.get(`/console/webhooks/${id}/deliveries/${delivery.deliveryId}`).expect(200)).text;
    expect(page).toContain(escapeHtml(detail.body.toString('utf8')));
    expect(page).toContain(`${'x'.repeat(1000)}${'é'.repeat(12)}</pre>`);
    expect(await activityActions(tenant.organisationId)).toContain(`test event: ${verboseUrl}`);
  });

  it('lists deliveries newest first, failed only on request, and redelivers one', async () => {
    const url = receiver.url('/console-deliveries');
    await submit(admin.agent, '/console/webhooks', { url, events: 'skill.rated' });
    const id = await endpointOf(url);
    await submit(admin.agent, `/console/webhooks/${id}/test`, {});
    receiver.behave('/console-deliveries', { status: 503 });
    await submit(admin.agent, `/console/webhooks/${id}/test`, {});
    const all = (await admin.agent.get(`/console/webhooks/${id}`).expect(200)).text;
    for (const column of ['Event', 'Status', 'Response', 'Duration', 'Sent']) {
      expect(all).toContain(`<th scope="col">${column}</th>`);
    }
    expect(all.indexOf('>503<')).toBeLessThan(all.indexOf('>200<'));
    const failed = (await admin.agent.get(`/console/webhooks/${id}?failed=on`).expect(200)).text;
    expect(failed).toContain('>503<');
    expect(failed).not.toContain('>200<');

    const [latest] = (await suite.app.get(WebhooksService).listDeliveries(tenant.organisationId, id, pageOf(1))).items;
    const after = await submit(admin.agent, `/console/webhooks/${id}/deliveries/${latest.deliveryId}/redeliver`, {});
    expect(after.text).toContain('Redelivery queued');
    const [queued] = (await suite.app.get(WebhooksService).listDeliveries(tenant.organisationId, id, pageOf(1))).items;
    expect(queued.redeliveryOf).toBe(latest.deliveryId);
  });

  it('rotates the secret, showing the new one once, and deletes the endpoint after "Delete"', async () => {
    const url = receiver.url('/console-rotated');
    await submit(admin.agent, '/console/webhooks', { url, events: 'skill.rated' });
    const id = await endpointOf(url);
    const rotated = await submit(admin.agent, `/console/webhooks/${id}/rotate-secret`, {});
    const secret = revealed(rotated.text)!;
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(rotated.text).toContain('<label for="revealed">New secret</label>');
    expect((await admin.agent.get(`/console/webhooks/${id}`).expect(200)).text).not.toContain(secret);

    const confirm = (await admin.agent.get(`/console/webhooks/${id}/delete`).expect(200)).text;
    expect(confirm).toContain('>Delete</button>');
    const list = await submit(admin.agent, `/console/webhooks/${id}/delete`, {});
    expect(list.text).toContain(`Deleted ${url}`);
    await admin.agent.get(`/console/webhooks/${id}`).expect(404);
    const actions = await activityActions(tenant.organisationId);
    expect(actions).toContain(`secret rotated: ${url}`);
    expect(actions).toContain(`endpoint deleted: ${url}`);
  });

  it('answers 404 for another organisation’s endpoint and delivery, and changes nothing', async () => {
    const other = await createTenant(suite.app, 'Other hooks');
    const url = receiver.url('/stranger');
    const endpoint = await suite.app
      .get(WebhooksService)
      .create(other.organisationId, { url, events: ['skill.rated'] }, cliWrite());
    const delivery = await suite.app.get(WebhooksService).sendTest(other.organisationId, endpoint.id, cliWrite());
    const base = `/console/webhooks/${endpoint.id}`;
    for (const path of [base, `${base}/delete`, `${base}/deliveries/${delivery.deliveryId}`]) {
      const page = await admin.agent.get(path).expect(404);
      expect(page.text).not.toContain(url);
    }
    for (const path of [
      `${base}/test`,
      `${base}/rotate-secret`,
      `${base}/delete`,
      `${base}/deliveries/${delivery.deliveryId}/redeliver`,
    ]) {
      await admin.agent.post(path).expect(404);
    }
    await admin.agent.get('/console/webhooks/not-a-uuid').expect(404);
    await admin.agent.get(`/console/webhooks/${endpoint.id}/deliveries/not-a-uuid`).expect(404);
    expect((await admin.agent.get('/console/webhooks').expect(200)).text).not.toContain(url);
    const deliveries = await suite.app
      .get(WebhooksService)
      .listDeliveries(other.organisationId, endpoint.id, pageOf(1));
    expect(deliveries.items).toHaveLength(1);
    const [row] = await dataSourceOf(suite.app).query('SELECT secret_sealed FROM webhook_endpoints WHERE id = $1', [
      endpoint.id,
    ]);
    expect(row.secret_sealed).toBeNull();
  });

  it('shows a viewer no change controls, and refuses their forged changes', async () => {
    const url = receiver.url('/viewed');
    await submit(admin.agent, '/console/webhooks', { url, events: 'skill.rated' });
    const id = await endpointOf(url);
    await submit(admin.agent, `/console/webhooks/${id}/test`, {});
    const [delivery] = (await suite.app.get(WebhooksService).listDeliveries(tenant.organisationId, id, pageOf(1)))
      .items;
    const list = (await viewer.agent.get('/console/webhooks').expect(200)).text;
    expect(list).not.toContain('Add endpoint');
    const page = (await viewer.agent.get(`/console/webhooks/${id}`).expect(200)).text;
    for (const button of ['Send test event', 'Rotate secret', 'Delete endpoint', 'Redeliver']) {
      expect(page).not.toContain(`>${button}</button>`);
    }
    await viewer.agent.get(`/console/webhooks/${id}/deliveries/${delivery.deliveryId}`).expect(200);
    await viewer.agent.get('/console/webhooks/new').expect(403);
    await viewer.agent.get(`/console/webhooks/${id}/delete`).expect(403);
    for (const path of [
      '',
      `/${id}/test`,
      `/${id}/rotate-secret`,
      `/${id}/delete`,
      `/${id}/deliveries/${delivery.deliveryId}/redeliver`,
    ]) {
      await viewer.agent.post(`/console/webhooks${path}`).type('form').send({ url, events: 'skill.rated' }).expect(403);
    }
    await admin.agent.post(`/console/webhooks/${id}/delete`).set('Origin', 'https://evil.example').expect(403);
    await admin.agent.get(`/console/webhooks/${id}`).expect(200);
    const deliveries = await suite.app.get(WebhooksService).listDeliveries(tenant.organisationId, id, pageOf(1));
    expect(deliveries.items).toHaveLength(1);
  });

  /**
   * Issue 45: the console's changes to an endpoint while a dispatching app's send to it is in flight (its
   * receiver holds the request open). On the embedded database an app's pool is one connection: the delete read
   * the endpoint outside its own transaction, which held that connection, and answered 503 once
   * DATABASE_TIMEOUT_MS had passed.
   */
  describe('with a delivery in flight', () => {
    let dispatching: NestExpressApplication;
    let hanging: HangingReceiver;

    beforeAll(async () => {
      // Sends time out long after the test: the delivery stays in flight until the receiver stops.
      dispatching = await createTestApp({ webhookTimeoutMs: 120_000 }, [TrustCertificateModule.of(certificate)], {
        dispatch: true,
      });
      hanging = await new HangingReceiver(certificate).start();
    });
    afterAll(async () => {
      await hanging.stop();
      await dispatching.close();
    });

    it('rotates the secret, redelivers and deletes (303), and answers 404 for another organisation', async () => {
      const own = await createTenant(dispatching, 'In flight');
      const person = await consolePerson(dispatching, own.organisationId, 'admin');
      const other = await createTenant(dispatching, 'Stranger');
      const stranger = await consolePerson(dispatching, other.organisationId, 'admin');
      const webhooks = dispatching.get(WebhooksService);
      const url = hanging.url('/in-flight');
      await submit(person.agent, '/console/webhooks', { url, events: 'employee.created' });
      const [endpoint] = await webhooks.list(own.organisationId);
      await createEmployee(dispatching, own);
      await waitUntil(() => hanging.deliveries.length === 1, 'the receiver holds the delivery open');
      const pending = async () =>
        (await webhooks.listDeliveries(own.organisationId, endpoint.id, pageOf(1))).items.filter(
          (delivery) => delivery.status === 'pending',
        );
      const [inFlight] = await pending();

      const base = `/console/webhooks/${endpoint.id}`;
      const redeliver = `${base}/deliveries/${inFlight.deliveryId}/redeliver`;
      for (const path of [`${base}/rotate-secret`, redeliver, `${base}/delete`]) {
        await stranger.agent.post(path).expect(404);
      }
      expect(await pending()).toEqual([inFlight]);
      expect((await submit(person.agent, `${base}/rotate-secret`, {})).text).toContain('Secret rotated.');
      expect((await submit(person.agent, redeliver, {})).text).toContain('Redelivery queued');
      // Still in flight: the receiver has answered nothing.
      expect((await pending()).map((delivery) => delivery.deliveryId)).toContain(inFlight.deliveryId);
      expect((await submit(person.agent, `${base}/delete`, {})).text).toContain(`Deleted ${url}`);
      await person.agent.get(base).expect(404);
      expect(await webhooks.list(own.organisationId)).toEqual([]);
    });
  });
});

describe('events', () => {
  it('lists the feed newest first, 50 a page, with Older and Newer, filtered by event type, each with its JSON', async () => {
    const own = await createTenant(suite.app, 'Feed');
    const person = await consolePerson(suite.app, own.organisationId, 'viewer');
    const names: string[] = [];
    for (let index = 0; index < 52; index++) {
      names.push(`Skill ${String(index).padStart(2, '0')}`);
      await api(own.key).post('/skills', { name: names[index] }).expect(201);
    }

    // The feed lists an event once every older transaction has ended: within a second (docs/api-decisions.md).
    const first = await waitUntil(
      async () => {
        const { text } = await person.agent.get('/console/events').expect(200);
        return text.includes('Skill 51') && text;
      },
      'the feed lists Skill 51',
      { timeoutMs: 5000, intervalMs: 100 },
    );
    expect(first).toContain('<label for="event-type">Event type</label>');
    expect(first.indexOf('Skill 51')).toBeLessThan(first.indexOf('Skill 50'));
    expect(first).not.toContain('Skill 01');
    expect(first).toContain('<summary>JSON');
    expect(first).not.toContain('>Newer</a>');
    const older = /href="(\/console\/events\?before=[0-9a-f-]+)">Older<\/a>/.exec(first)![1];
    const second = (await person.agent.get(older).expect(200)).text;
    expect(second).toContain('Skill 01');
    expect(second).toContain('Skill 00');
    expect(second).not.toContain('Skill 02');
    expect(second).not.toContain('>Older</a>');
    const newer = /href="(\/console\/events\?after=[0-9a-f-]+)">Newer<\/a>/.exec(second)![1];
    const back = (await person.agent.get(newer.replace(/&amp;/g, '&')).expect(200)).text;
    expect(back).toContain('Skill 51');
    expect(back).toContain('Skill 02');

    const filtered = (await person.agent.get('/console/events?event=skill.deleted').expect(200)).text;
    expect(filtered).toContain('No events named skill.deleted');
    await person.agent.get('/console/events?event=no.such.event').expect(400);
    const other = await createTenant(suite.app, 'Feed stranger');
    await api(other.key).post('/skills', { name: 'Not theirs to see' }).expect(201);
    expect((await person.agent.get('/console/events').expect(200)).text).not.toContain('Not theirs to see');
  });
});
