import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Page } from 'playwright-core';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { PeopleService } from '../../src/console/people/people.service';
import { cliWrite } from '../../src/database/write-context';
import { WebhooksService } from '../../src/webhooks/webhooks.service';
import { createTenant, createTestApp, TestTenant } from '../support/app';
import {
  Browser,
  describeInBrowser,
  foreignRequests,
  openBrowser,
  screenshot,
  scrollsSideways,
  seriousAccessibilityViolations,
} from '../support/browser';
import { TEST_PASSWORD } from '../support/console';
import { testCertificate, TrustCertificateModule } from '../support/tls';
import { useTestApp } from '../support/use-test-app';
import { verifyStandardSignature, WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

/** The service in this process, listening on a port of its own, as a browser reaches it. */
async function listen(app: NestExpressApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

describeInBrowser('the console in Chromium', () => {
  let origin: string;
  let tenant: TestTenant;
  let browser: Browser;

  const certificate = testCertificate();
  // Sending as the server does, trusting the test receiver: redeliveries go through the dispatcher.
  const suite = useTestApp({
    imports: [TrustCertificateModule.of(certificate)],
    app: { dispatch: true },
    tenant: 'none',
  });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver(certificate).start();
    origin = await listen(suite.app);
    tenant = await createTenant(suite.app, 'Browser');
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
  });
  afterEach(() => {
    expect(foreignRequests(browser.requests, [origin])).toEqual([]);
  });

  /** Invites a person as the command line would; answers their email and welcome link (on this origin). */
  async function invite(role: 'admin' | 'viewer', organisationId = tenant.organisationId) {
    const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
    const { link } = await suite.app.get(PeopleService).invite(organisationId, { email, role }, { type: 'cli' });
    return { email, link: `${origin}${new URL(link).pathname}` };
  }

  /** A page of a person who chose TEST_PASSWORD through their welcome link, which signs them in. */
  async function signedIn(role: 'admin' | 'viewer', width = 1280, organisationId?: string) {
    const { email, link } = await invite(role, organisationId);
    const page = await browser.newPage(width);
    await page.goto(link);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Choose password' }).click();
    await page.waitForURL(`${origin}/console/api-keys`);
    return { email, page };
  }

  async function checkPage(page: Page, name: string): Promise<void> {
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${name}-desktop`);
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `${name}-360`);
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  it('signs in with Email and Password, and shows every page accessibly, at 360 px too, with nothing from elsewhere', async () => {
    const { email, link } = await invite('admin');
    await invite('viewer');
    const page = await browser.newPage();
    await page.goto(link);
    await checkPage(page, 'welcome');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Choose password' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.waitForURL(`${origin}/console/sign-in`);
    await checkPage(page, 'sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/console/api-keys`);

    const navigation = page.getByRole('navigation', { name: 'Settings' });
    for (const name of ['API keys', 'Webhooks', 'Events', 'People', 'Activity']) {
      await navigation.getByRole('link', { name }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await page.getByRole('banner').getByText(email).waitFor();
      await page
        .getByRole('banner')
        .getByText(/^Browser /)
        .waitFor();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await checkPage(page, name.toLowerCase().replace(' ', '-'));
    }
    await page.goto(`${origin}/console/no-such-page`);
    await checkPage(page, 'not-found');
    await page.close();
  });

  it('says the same for a locked email as for a wrong password', async () => {
    const { email } = await signedIn('viewer');
    const page = await browser.newPage();
    const attempt = async (password: string) => {
      await page.goto(`${origin}/console/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      return page.getByRole('alert').textContent();
    };
    const wrong = await attempt('a wrong password, once');
    for (let failure = 2; failure <= 5; failure++) expect(await attempt(`wrong password ${failure}`)).toBe(wrong);
    expect(await attempt(TEST_PASSWORD)).toBe(wrong);
    await page.waitForURL(`${origin}/console/sign-in`);
    await page.close();
  });

  it('ends the session at sign-out, its cookie with it', async () => {
    const { page } = await signedIn('viewer');
    const [session] = (await page.context().cookies()).filter(({ name }) => name === 'console_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/console', secure: false });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${origin}/console/sign-in`);
    // The old cookie, put back, opens nothing.
    await page.context().addCookies([session]);
    await page.goto(`${origin}/console/people`);
    await page.waitForURL(`${origin}/console/sign-in`);
    await page.context().close();
  });

  it('shows a viewer no change controls, and refuses a change a viewer forges', async () => {
    const { page } = await signedIn('viewer');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'People' }).click();
    await page.getByRole('columnheader', { name: 'Email' }).waitFor();
    await page.getByRole('columnheader', { name: 'Role' }).waitFor();
    await page.getByRole('columnheader', { name: 'Last sign-in' }).waitFor();
    expect(await page.getByRole('button', { name: 'Invite person' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    expect(await page.getByRole('combobox').count()).toBe(0);
    const status = await page.evaluate(async () => {
      const response = await fetch('/console/people', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'email=forged%40example.com&role=admin',
      });
      return response.status;
    });
    expect(status).toBe(403);
    await expect(suite.app.get(PeopleService).findByEmail('forged@example.com')).rejects.toThrow('not found');
    await page.context().close();
  });

  describe('a change sent from another site', () => {
    let evil: Server;
    let evilOrigin: string;
    beforeAll(async () => {
      // Another origin (another port: the same site for cookies, so the session cookie goes along).
      evil = createServer((_request, response) => {
        response.setHeader('Content-Type', 'text/html');
        response.end(`<!doctype html><title>Prize</title>
<form method="post" action="${origin}/console/people">
<input name="email" value="planted@example.com"><input name="role" value="admin">
<button>Claim your prize</button></form>`);
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => evil.close(() => resolve())));

    it('is refused with 403 though the admin’s cookie goes along', async () => {
      const { page } = await signedIn('admin');
      await page.goto(evilOrigin);
      const [response] = await Promise.all([
        page.waitForResponse(`${origin}/console/people`),
        page.getByRole('button', { name: 'Claim your prize' }).click(),
      ]);
      expect(response.status()).toBe(403);
      expect(response.request().headers()['cookie'] ?? (await response.request().allHeaders()).cookie).toContain(
        'console_session=',
      );
      await expect(suite.app.get(PeopleService).findByEmail('planted@example.com')).rejects.toThrow('not found');
      await page.context().close();
      browser.requests.splice(0);
    });
  });

  it('invites a person, showing the welcome link once; changes a role; removes; keeps the last admin', async () => {
    const own = await createTenant(suite.app, 'People');
    const { page, email: adminEmail } = await signedIn('admin', 1280, own.organisationId);
    await page.goto(`${origin}/console/people`);
    const invitee = `new-${Math.random().toString(36).slice(2)}@example.com`;
    const invite = page.getByRole('form', { name: 'Invite person' });
    await invite.getByLabel('Email').fill(invitee);
    await invite.getByLabel('Role').selectOption('viewer');
    await page.getByRole('button', { name: 'Invite person' }).click();
    const link = await page.getByLabel('Welcome link').inputValue();
    expect(link).toMatch(/\/console\/welcome\/[\w-]{43}$/);
    expect(await page.getByLabel('Welcome link').getAttribute('readonly')).toBe('');
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await checkPage(page, 'people-invited');
    await page.reload();
    expect(await page.getByLabel('Welcome link').count()).toBe(0);

    const row = page.getByRole('row', { name: new RegExp(invitee) });
    await row.getByLabel('Role').selectOption('admin');
    await row.getByRole('button', { name: 'Change role' }).click();
    expect(await page.getByRole('status').first().textContent()).toContain('Role changed');
    expect((await suite.app.get(PeopleService).findByEmail(invitee)).role).toBe('admin');
    await page
      .getByRole('row', { name: new RegExp(invitee) })
      .getByRole('button', { name: 'Remove' })
      .click();
    expect(await page.getByRole('status').first().textContent()).toContain(`Removed ${invitee}`);
    expect(await page.getByRole('row', { name: new RegExp(invitee) }).count()).toBe(0);

    // Now the only admin: neither demoted nor removed.
    const self = page.getByRole('row', { name: new RegExp(adminEmail) });
    await self.getByLabel('Role').selectOption('viewer');
    await self.getByRole('button', { name: 'Change role' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('last admin');
    await page
      .getByRole('row', { name: new RegExp(adminEmail) })
      .getByRole('button', { name: 'Remove' })
      .click();
    expect(await page.getByRole('alert').textContent()).toContain('last admin');
    expect((await suite.app.get(PeopleService).findByEmail(adminEmail)).role).toBe('admin');

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Activity' }).click();
    for (const action of ['person invited', 'role changed', 'person removed', 'sign-in', 'password chosen']) {
      await page.getByRole('cell', { name: action, exact: true }).first().waitFor();
    }
    await page.getByRole('cell', { name: '127.0.0.1' }).first().waitFor();
    await page.context().close();
  });

  it('answers 404 for another organisation’s person, and never lists them', async () => {
    const other = await createTenant(suite.app, 'Stranger');
    const stranger = await invite('viewer', other.organisationId);
    const strangerId = (await suite.app.get(PeopleService).findByEmail(stranger.email)).id;
    const { page } = await signedIn('admin');
    await page.goto(`${origin}/console/people`);
    expect(await page.getByText(stranger.email).count()).toBe(0);
    const status = await page.evaluate(async (id) => {
      const response = await fetch(`/console/people/${id}/remove`, { method: 'POST' });
      return response.status;
    }, strangerId);
    expect(status).toBe(404);
    expect((await suite.app.get(PeopleService).findByEmail(stranger.email)).id).toBe(strangerId);
    await page.context().close();
  });

  /** The API at /api/v1 with a key, as an integrator calls it. */
  async function callApi(key: string, method: 'GET' | 'POST', path: string, body?: object): Promise<number> {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  }

  it('creates a key shown once with Copy, which works on the API with its scopes, and revoked here is refused within 5 s', async () => {
    const own = await createTenant(suite.app, 'Keys');
    const { page } = await signedIn('admin', 1280, own.organisationId);
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create API key' }).waitFor();
    await checkPage(page, 'api-keys-create');
    await page.getByLabel('Name').fill('Reporting');
    for (const scope of ['write', 'webhooks', 'events', 'privacy'])
      await page.getByRole('checkbox', { name: scope }).uncheck();
    expect(await page.getByRole('checkbox', { name: 'read' }).isChecked()).toBe(true);
    await page.getByLabel('Expires').selectOption('90');
    await page.getByRole('button', { name: 'Create', exact: true }).click();

    const key = await page.getByLabel('New API key').inputValue();
    expect(await page.getByLabel('New API key').getAttribute('readonly')).toBe('');
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    for (const column of ['Name', 'Scopes', 'Created', 'Expires', 'Last used', 'Status']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    await checkPage(page, 'api-keys');
    expect(await callApi(key, 'GET', '/skills')).toBe(200);
    expect(await callApi(key, 'POST', '/skills', { name: 'Not with read only' })).toBe(403);
    await page.reload();
    expect(await page.getByLabel('New API key').count()).toBe(0);

    const row = page.getByRole('row', { name: /Reporting/ });
    expect(await row.getByRole('cell', { name: 'read', exact: true }).count()).toBe(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await checkPage(page, 'api-keys-revoke');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page
      .getByRole('row', { name: /Reporting/ })
      .getByText('revoked')
      .waitFor();
    const revokedAt = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < 5000) {
      status = await callApi(key, 'GET', '/skills');
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(401);

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Activity' }).click();
    for (const action of ['key created', 'key revoked']) {
      await page.getByRole('cell', { name: action, exact: true }).first().waitFor();
    }
    await page.context().close();
  });

  it('adds an endpoint, tests it, shows the delivery, redelivers, rotates its secret and deletes it, with a real HTTPS receiver', async () => {
    const own = await createTenant(suite.app, 'Hooks');
    const { page } = await signedIn('admin', 1280, own.organisationId);
    const path = '/browser-endpoint';
    const url = receiver.url(path);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await checkPage(page, 'webhooks-add');
    await page.getByLabel('URL').fill(url);
    await page.getByRole('checkbox', { name: 'skill.rated' }).check();
    await page.getByRole('checkbox', { name: 'employee.created' }).check();
    await page.getByLabel('Secret').fill('the first secret');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    for (const column of ['URL', 'Events', 'Created']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    await checkPage(page, 'webhooks');

    await page.getByRole('link', { name: url }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event sent: delivered' }).waitFor();
    const [tested] = await receiver.waitFor(path, 1);
    expect(verifyStandardSignature(tested, 'the first secret').library).toBe(true);
    for (const column of ['Event', 'Status', 'Response', 'Duration', 'Sent']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    await page.getByRole('checkbox', { name: 'Failed only' }).check();
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No deliveries that failed here.').waitFor();
    await page.getByRole('checkbox', { name: 'Failed only' }).uncheck();
    await page.getByRole('button', { name: 'Show' }).click();
    await checkPage(page, 'webhook-endpoint');

    await page.getByRole('link', { name: 'webhook.test' }).click();
    await page.getByRole('heading', { level: 1, name: 'Delivery' }).waitFor();
    expect(await page.getByRole('region', { name: 'Body sent' }).locator('pre').textContent()).toBe(
      tested.body.toString('utf8'),
    );
    expect(await page.getByRole('region', { name: 'Response body (first 1 KiB)' }).locator('pre').textContent()).toBe(
      'ok',
    );
    await checkPage(page, 'webhook-delivery');
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByRole('status').filter({ hasText: 'Redelivery queued' }).waitFor();
    const [, redelivered] = await receiver.waitFor(path, 2);
    expect(redelivered.body).toEqual(tested.body);
    expect(redelivered.headers['webhook-id']).toBe(tested.headers['webhook-id']);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const secret = await page.getByLabel('New secret').inputValue();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event sent' }).waitFor();
    const [, , afterRotation] = await receiver.waitFor(path, 3);
    expect(verifyStandardSignature(afterRotation, secret).library).toBe(true);

    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await checkPage(page, 'webhook-delete');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Deleted ${url}` })
      .waitFor();
    expect(await suite.app.get(WebhooksService).list(own.organisationId)).toEqual([]);

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Activity' }).click();
    for (const action of ['endpoint added', 'test event', 'redelivery', 'secret rotated', 'endpoint deleted']) {
      await page.getByRole('cell', { name: action, exact: true }).first().waitFor();
    }
    await page.context().close();
  });

  it('shows the feed newest first with a filter, and an event’s JSON on request', async () => {
    const own = await createTenant(suite.app, 'Feed');
    for (const name of ['Older skill', 'Newer skill']) {
      expect(await callApi(own.key, 'POST', '/skills', { name })).toBe(201);
    }
    // The feed lists an event once every older transaction has ended: within a second (docs/api-decisions.md).
    for (let listed = 0, tries = 0; listed < 2 && tries < 50; tries++) {
      const response = await fetch(`${origin}/api/v1/events?event=skill.created`, {
        headers: { Authorization: `Bearer ${own.key}` },
      });
      listed = ((await response.json()) as { data: unknown[] }).data.length;
      if (listed < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { page } = await signedIn('viewer', 1280, own.organisationId);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Events' }).click();
    await page.getByLabel('Event type').selectOption('skill.created');
    await page.getByRole('button', { name: 'Filter' }).click();
    const rows = page.getByRole('row').filter({ hasText: 'skill.created' });
    await rows.nth(1).waitFor();
    await rows.first().getByText('JSON').click();
    expect(JSON.parse((await rows.first().locator('pre').textContent())!)).toMatchObject({
      event: 'skill.created',
      data: { name: 'Newer skill' },
    });
    await checkPage(page, 'events');
    await page.context().close();
  });

  it('shows a viewer no change controls on the keys and webhooks, and refuses a change they forge', async () => {
    const own = await createTenant(suite.app, 'Viewed');
    await suite.app
      .get(WebhooksService)
      .create(own.organisationId, { url: receiver.url('/viewed'), events: ['skill.rated'] }, cliWrite());
    const { page } = await signedIn('viewer', 1280, own.organisationId);
    await page.getByRole('row', { name: /test/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Create API key' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);
    await page.getByRole('link', { name: receiver.url('/viewed') }).click();
    for (const name of ['Send test event', 'Rotate secret', 'Delete endpoint']) {
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    }
    const status = await page.evaluate(async (keyId) => {
      const response = await fetch(`/console/api-keys/${keyId}/revoke`, { method: 'POST' });
      return response.status;
    }, own.keyId);
    expect(status).toBe(403);
    const [key] = await suite.app.get(ApiKeysService).list(own.organisationId);
    expect(key.revokedAt).toBeNull();
    await page.context().close();
  });

  it('answers 404 for another organisation’s endpoint and delivery pages', async () => {
    const other = await createTenant(suite.app, 'Elsewhere');
    const endpoint = await suite.app
      .get(WebhooksService)
      .create(other.organisationId, { url: receiver.url('/elsewhere'), events: ['skill.rated'] }, cliWrite());
    const delivery = await suite.app.get(WebhooksService).sendTest(other.organisationId, endpoint.id, cliWrite());
    const { page } = await signedIn('admin');
    for (const path of [
      `/console/webhooks/${endpoint.id}`,
      `/console/webhooks/${endpoint.id}/deliveries/${delivery.deliveryId}`,
    ]) {
      const response = await page.goto(`${origin}${path}`);
      expect(response?.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
      expect(await page.getByText(receiver.url('/elsewhere')).count()).toBe(0);
    }
    await page.context().close();
  });

  it('is not there with CONSOLE_ENABLED=false', async () => {
    const off = await createTestApp({ consoleEnabled: false });
    try {
      const offOrigin = await listen(off);
      const page = await browser.newPage();
      for (const path of ['/console', '/console/sign-in']) {
        expect((await page.goto(`${offOrigin}${path}`))?.status()).toBe(404);
      }
      // Its context too, as the other tests do: a socket Chromium keeps alive to `off` may hold off.close().
      await page.context().close();
      browser.requests.splice(0);
    } finally {
      await off.close();
    }
  });
});
