import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Page } from 'playwright-core';
import { PeopleService } from '../../src/console/people/people.service';
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

jest.setTimeout(120_000);

/** The service in this process, listening on a port of its own, as a browser reaches it. */
async function listen(app: NestExpressApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

describeInBrowser('the console in Chromium', () => {
  let app: NestExpressApplication;
  let origin: string;
  let tenant: TestTenant;
  let browser: Browser;

  beforeAll(async () => {
    app = await createTestApp();
    origin = await listen(app);
    tenant = await createTenant(app, 'Browser');
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => {
    expect(foreignRequests(browser.requests, [origin])).toEqual([]);
  });

  /** Invites a person as the command line would; answers their email and welcome link (on this origin). */
  async function invite(role: 'admin' | 'viewer', organisationId = tenant.organisationId) {
    const email = `${role}-${Math.random().toString(36).slice(2)}@example.com`;
    const { link } = await app.get(PeopleService).invite(organisationId, { email, role }, { who: 'cli' });
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
    await expect(app.get(PeopleService).findByEmail('forged@example.com')).rejects.toThrow('not found');
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
      await expect(app.get(PeopleService).findByEmail('planted@example.com')).rejects.toThrow('not found');
      await page.context().close();
      browser.requests.splice(0);
    });
  });

  it('invites a person, showing the welcome link once; changes a role; removes; keeps the last admin', async () => {
    const own = await createTenant(app, 'People');
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
    expect((await app.get(PeopleService).findByEmail(invitee)).role).toBe('admin');
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
    expect((await app.get(PeopleService).findByEmail(adminEmail)).role).toBe('admin');

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Activity' }).click();
    for (const action of ['person invited', 'role changed', 'person removed', 'sign-in', 'password chosen']) {
      await page.getByRole('cell', { name: action, exact: true }).first().waitFor();
    }
    await page.getByRole('cell', { name: '127.0.0.1' }).first().waitFor();
    await page.context().close();
  });

  it('answers 404 for another organisation’s person, and never lists them', async () => {
    const other = await createTenant(app, 'Stranger');
    const stranger = await invite('viewer', other.organisationId);
    const strangerId = (await app.get(PeopleService).findByEmail(stranger.email)).id;
    const { page } = await signedIn('admin');
    await page.goto(`${origin}/console/people`);
    expect(await page.getByText(stranger.email).count()).toBe(0);
    const status = await page.evaluate(async (id) => {
      const response = await fetch(`/console/people/${id}/remove`, { method: 'POST' });
      return response.status;
    }, strangerId);
    expect(status).toBe(404);
    expect((await app.get(PeopleService).findByEmail(stranger.email)).id).toBe(strangerId);
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
      await page.close();
      browser.requests.splice(0);
    } finally {
      await off.close();
    }
  });
});
