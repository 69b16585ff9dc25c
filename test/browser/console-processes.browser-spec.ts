import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Page } from 'playwright-core';
import { TEST_SERVICE_SECRET_KEY } from '../support/app';
import { Browser, describeInBrowser, foreignRequests, openBrowser, screenshot } from '../support/browser';
import { TEST_PASSWORD } from '../support/console';
import { startOidcProvider, OidcProvider } from '../support/oidc-provider';
import { freePort, runCliProcess, ServerProcess, startServer } from '../support/server-process';
import { testCertificate } from '../support/tls';

jest.setTimeout(180_000);

/** The environment of a server or a command on the run's PostgreSQL database. */
function databaseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Record<string, any>> {
  const result = await runCliProcess([...args, '--json'], env);
  if (result.code !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, any>;
}

const unique = () => Math.random().toString(36).slice(2);

describeInBrowser(
  'console sessions across instances',
  () => {
    let first: ServerProcess;
    let second: ServerProcess;
    let browser: Browser;
    let organisation: string;
    const origin = (server: ServerProcess) => `http://127.0.0.1:${server.port}`;

    beforeAll(async () => {
      [first, second] = await Promise.all([startServer(databaseEnv()), startServer(databaseEnv())]);
      organisation = (await cli(databaseEnv(), 'org', 'create', `Instances ${unique()}`)).id as string;
      browser = await openBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await Promise.all([first?.stop(), second?.stop()]);
    });
    afterEach(() => expect(foreignRequests(browser.requests, [origin(first), origin(second)])).toEqual([]));

    /** A person invited with the command line, signed in on the first instance through their welcome link. */
    async function signedInOnFirst(role: 'admin' | 'viewer'): Promise<{ id: string; email: string; page: Page }> {
      const invited = await cli(
        databaseEnv(),
        'user',
        'invite',
        '--org',
        organisation,
        '--email',
        `${role}-${unique()}@example.com`,
        '--role',
        role,
      );
      const page = await browser.newPage();
      await page.goto(`${origin(first)}${new URL(invited.link as string).pathname}`);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Choose password' }).click();
      await page.waitForURL(`${origin(first)}/console/api-keys`);
      return { id: invited.id as string, email: invited.email as string, page };
    }

    /** Whether the page's session still opens People on the second instance (same host: the cookie goes along). */
    async function openOnSecond(page: Page): Promise<boolean> {
      await page.goto(`${origin(second)}/console/people`);
      return new URL(page.url()).pathname === '/console/people';
    }

    it('ends a session on every instance when the person signs out on one', async () => {
      const { page } = await signedInOnFirst('viewer');
      expect(await openOnSecond(page)).toBe(true);
      await page.goto(`${origin(first)}/console/people`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${origin(first)}/console/sign-in`);
      const [session] = await page.context().cookies();
      expect(session).toBeUndefined();
      await page.context().close();
    });

    it('ends a person’s sessions on every instance when an admin removes them or changes their role', async () => {
      const admin = await signedInOnFirst('admin');
      for (const change of ['role', 'remove'] as const) {
        const person = await signedInOnFirst('viewer');
        expect(await openOnSecond(person.page)).toBe(true);
        await admin.page.goto(`${origin(first)}/console/people`);
        const row = admin.page.getByRole('row', { name: new RegExp(person.email) });
        if (change === 'role') {
          await row.getByLabel('Role').selectOption('admin');
          await row.getByRole('button', { name: 'Change role' }).click();
        } else {
          await row.getByRole('button', { name: 'Remove' }).click();
        }
        await admin.page.getByRole('status').first().waitFor();
        expect(await openOnSecond(person.page)).toBe(false);
        expect(new URL(person.page.url()).pathname).toBe('/console/sign-in');
        await person.page.context().close();
      }
      await admin.page.context().close();
    });

    it('has a key created and revoked on one instance refused by the other within 5 s', async () => {
      const admin = await signedInOnFirst('admin');
      const { page } = admin;
      await page.getByRole('button', { name: 'Create API key' }).click();
      await page.getByLabel('Name').fill(`across ${unique()}`);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      const key = await page.getByLabel('New API key').inputValue();
      const onSecond = async () => {
        const response = await fetch(`${origin(second)}/api/v1/skills`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        await response.arrayBuffer();
        return response.status;
      };
      // Used on the second instance first, so its cache holds the key as valid when it is revoked.
      expect(await onSecond()).toBe(200);
      await page.getByRole('button', { name: 'Revoke' }).last().click();
      await page.getByRole('button', { name: 'Revoke key' }).click();
      await page.getByRole('status').filter({ hasText: 'Revoked' }).waitFor();
      const revokedAt = Date.now();
      let status = 200;
      while (status !== 401 && Date.now() - revokedAt < 5000) {
        status = await onSecond();
        if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(401);
      await page.context().close();
    });
  },
  { postgres: true },
);

describeInBrowser(
  'single sign-on against a real OpenID Connect provider',
  () => {
    let provider: OidcProvider;
    let server: ServerProcess;
    let browser: Browser;
    let origin: string;
    let organisation: string;
    let env: NodeJS.ProcessEnv;
    const caDirectory = mkdtempSync(join(tmpdir(), 'console-sso-ca-'));

    beforeAll(async () => {
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      provider = await startOidcProvider(`${origin}/console/sso/callback`);
      // The provider's certificate is the run's test certificate: the service trusts it as it would a real CA's.
      const caFile = join(caDirectory, 'ca.pem');
      writeFileSync(caFile, testCertificate().cert);
      env = databaseEnv({ PUBLIC_URL: origin, NODE_EXTRA_CA_CERTS: caFile });
      server = await startServer(env, { port });
      organisation = (await cli(env, 'org', 'create', `Signed on ${unique()}`)).id as string;
      browser = await openBrowser({ ignoreHTTPSErrors: true });
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await provider?.stop();
      rmSync(caDirectory, { recursive: true, force: true });
    });

    /** Signs in at the provider's own (development) login page as `login`, and consents. */
    async function signInAtProvider(page: Page, login: string): Promise<void> {
      await page.waitForURL(new RegExp(`^${provider.issuer}/`));
      await page.locator('input[name="login"]').fill(login);
      await page.locator('input[name="password"]').fill('anything');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
    }

    async function startAtConsole(page: Page, email: string): Promise<void> {
      await page.goto(`${origin}/console/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
    }

    it('sends an invited person to the provider and signs them in; their password no longer works', async () => {
      const invited = await cli(
        env,
        'user',
        'invite',
        '--org',
        organisation,
        '--email',
        `sso-${unique()}@example.com`,
        '--role',
        'admin',
      );
      const email = invited.email as string;
      const page = await browser.newPage();
      // A password chosen before single sign-on...
      await page.goto(`${origin}${new URL(invited.link as string).pathname}`);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Choose password' }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await cli(
        env,
        'sso',
        'set',
        '--org',
        organisation,
        '--issuer',
        provider.issuer,
        '--client-id',
        provider.clientId,
        '--client-secret',
        provider.clientSecret,
      );

      // ...signs no one in now: the sign-in page offers the provider instead.
      await page.goto(`${origin}/console/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Continue' }).waitFor();
      await screenshot(page, 'sign-in-continue');
      expect(new URL(page.url()).pathname).toBe('/console/sign-in');

      await page.getByRole('button', { name: 'Continue' }).click();
      await signInAtProvider(page, email);
      await page.waitForURL(`${origin}/console/api-keys`);
      await page.getByText(email).waitFor();
      await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Activity' }).click();
      await page.getByRole('cell', { name: 'with single sign-on' }).waitFor();
      await page.context().close();
      // Only the service and the provider were asked for anything (the provider's page also names a web font).
      expect(foreignRequests(browser.requests, [origin, provider.issuer, 'https://fonts.googleapis.com'])).toEqual([]);
    });

    it('refuses someone the provider signs in who is not a person of that organisation, creating no one', async () => {
      const invited = await cli(
        env,
        'user',
        'invite',
        '--org',
        organisation,
        '--email',
        `known-${unique()}@example.com`,
        '--role',
        'viewer',
      );
      const page = await browser.newPage();
      await startAtConsole(page, invited.email as string);
      const stranger = `stranger-${unique()}@example.com`;
      await signInAtProvider(page, stranger);
      await page.waitForURL(`${origin}/console/sso/callback?**`);
      expect(await page.getByRole('alert').textContent()).toContain('does not know');
      expect(
        (await cli(env, 'user', 'list', '--org', organisation)).users.map((user: { email: string }) => user.email),
      ).not.toContain(stranger);
      await page.goto(`${origin}/console/people`);
      expect(new URL(page.url()).pathname).toBe('/console/sign-in');
      await page.context().close();
    });
  },
  { postgres: true },
);
