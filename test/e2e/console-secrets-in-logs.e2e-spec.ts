import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SERVICE_SECRET_KEY } from '../support/app';
import { TEST_PASSWORD } from '../support/console';
import { OidcProvider, startOidcProvider } from '../support/oidc-provider';
import { describeIfPostgres } from '../support/requirements';
import { freePort, runCliProcess, ServerProcess, startServer } from '../support/server-process';
import { testCertificate } from '../support/tls';
import { TraceCollector } from '../support/trace-collector';

jest.setTimeout(120_000);

interface Answer {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A browser reduced to what these flows need: cookies kept per origin, redirects followed one at a time, the
 * provider's HTTPS trusted through the run's test certificate (its own), forms sent urlencoded.
 */
class FormBrowser {
  private readonly jars = new Map<string, Map<string, string>>();
  /** Every URL it was sent to, redirects included. */
  readonly visited: string[] = [];

  send(url: string, form?: Record<string, string>): Promise<Answer> {
    const target = new URL(url);
    const jar = this.jars.get(target.origin) ?? new Map<string, string>();
    this.jars.set(target.origin, jar);
    this.visited.push(url);
    const body = form && new URLSearchParams(form).toString();
    const headers = {
      ...(jar.size > 0 && { Cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') }),
      ...(body !== undefined && { 'Content-Type': 'application/x-www-form-urlencoded' }),
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const outgoing = send(
        target,
        { method: form ? 'POST' : 'GET', headers, ca: testCertificate().cert },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            for (const cookie of response.headers['set-cookie'] ?? []) {
              const [pair] = cookie.split(';');
              const name = pair.slice(0, pair.indexOf('='));
              const value = pair.slice(pair.indexOf('=') + 1);
              if (value === '' || /max-age=0\b/i.test(cookie) || /expires=Thu, 01 Jan 1970/i.test(cookie)) {
                jar.delete(name);
              } else {
                jar.set(name, value);
              }
            }
            resolve({
              url,
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString(),
            });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  /** Sends, then follows each redirect until an answer that is not one. */
  async follow(url: string, form?: Record<string, string>): Promise<Answer> {
    let answer = await this.send(url, form);
    while (answer.status >= 300 && answer.status < 400) {
      answer = await this.send(new URL(answer.headers.location!, answer.url).toString());
    }
    return answer;
  }
}

/** The environment of the server and the command line on the run's database. */
function databaseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { DATABASE_URL: process.env.TEST_DATABASE_URL, SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY, ...extra };
}

async function cli(...args: string[]): Promise<Record<string, any>> {
  const result = await runCliProcess([...args, '--json'], databaseEnv());
  if (result.code !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, any>;
}

const unique = () => Math.random().toString(36).slice(2);

/**
 * Issue 50: a welcome token, or a single sign-on code or state, in the access log or a span would let whoever reads
 * them set an invited admin's password or finish their sign-on. At LOG_LEVEL=debug, with spans exported.
 */
describeIfPostgres('the console keeps its URL secrets out of the access log and spans', () => {
  const collector = new TraceCollector();
  const caDirectory = mkdtempSync(join(tmpdir(), 'console-secrets-ca-'));
  let provider: OidcProvider;
  let server: ServerProcess;
  let origin: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider(`${origin}/console/sso/callback`);
    const caFile = join(caDirectory, 'ca.pem');
    writeFileSync(caFile, testCertificate().cert);
    server = await startServer(
      databaseEnv({
        PUBLIC_URL: origin,
        NODE_EXTRA_CA_CERTS: caFile,
        LOG_LEVEL: 'debug',
        LOG_FORMAT: 'json',
        OTEL_EXPORTER_OTLP_ENDPOINT: await collector.start(),
        OTEL_BSP_SCHEDULE_DELAY: '100',
      }),
      { port },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.stop();
    await collector.stop();
    rmSync(caDirectory, { recursive: true, force: true });
  });

  it('invite, welcome, password, and a single sign-on: no token, code or state in either', async () => {
    const welcomed = (await cli('org', 'create', `Welcomed ${unique()}`)).id as string;
    const invite = async (organisation: string) =>
      (
        await cli(
          'user',
          'invite',
          '--org',
          organisation,
          '--email',
          `secret-${unique()}@example.com`,
          '--role',
          'admin',
        )
      ).link as string;
    const secrets: string[] = [];
    const token = (link: string) => {
      secrets.push(link.slice(link.lastIndexOf('/') + 1));
      return `${origin}${new URL(link).pathname}`;
    };

    // The welcome link, as a browser opens it, then the password form at the URL it was sent to.
    const browser = new FormBrowser();
    const form = await browser.follow(token(await invite(welcomed)));
    expect([form.url, form.status]).toEqual([`${origin}/console/welcome`, 200]);
    const chosen = await browser.follow(`${origin}/console/welcome`, { password: TEST_PASSWORD });
    expect([chosen.url, chosen.status]).toEqual([`${origin}/console/api-keys`, 200]);
    // The form of 4.0.0, which posts to the link itself.
    const atLink = await new FormBrowser().send(token(await invite(welcomed)), { password: TEST_PASSWORD });
    expect(atLink.status).toBe(303);

    // A single sign-on at a real provider, through its own login and consent pages.
    const signedOn = (await cli('org', 'create', `Signed on ${unique()}`)).id as string;
    await cli(
      'sso',
      'set',
      '--org',
      signedOn,
      '--issuer',
      provider.issuer,
      '--client-id',
      provider.clientId,
      '--client-secret',
      provider.clientSecret,
    );
    const email = `sso-${unique()}@example.com`;
    await cli('user', 'invite', '--org', signedOn, '--email', email, '--role', 'viewer');
    const sso = new FormBrowser();
    let page = await sso.follow(`${origin}/console/sso/start`, { email });
    for (let step = 0; page.url.startsWith(provider.issuer) && step < 4; step++) {
      const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
      if (!action) throw new Error(`no form at ${page.url}:\n${page.body}`);
      const fields: Record<string, string> = page.body.includes('name="login"')
        ? { prompt: 'login', login: email, password: 'anything' }
        : { prompt: 'consent' };
      page = await sso.follow(new URL(action, page.url).toString(), fields);
    }
    expect([page.url, page.status]).toEqual([`${origin}/console/api-keys`, 200]);
    expect(page.body).toContain(email);
    const callback = new URL(sso.visited.find((url) => url.startsWith(`${origin}/console/sso/callback?`))!);
    const [code, state] = ['code', 'state'].map((name) => callback.searchParams.get(name)!);
    expect([code, state]).toEqual([expect.stringMatching(/.{16}/), expect.stringMatching(/.{16}/)]);
    secrets.push(code, state);

    // Everything is in the access log and at the collector (the callback's span ends last) before looking.
    await server.waitFor(/"path":"\/console\/sso\/callback"[^\n]*"statusCode":303/);
    const spans = (await collector.waitFor([Buffer.from('/console/sso/callback')])).toString('latin1');
    const leaks = (text: string) => secrets.filter((secret) => text.includes(secret));
    expect({ log: leaks(server.output()), spans: leaks(spans) }).toEqual({ log: [], spans: [] });
    expect(server.output()).toContain('"path":"/console/welcome/[redacted]"');
    expect(spans).toContain('/console/welcome/[redacted]');
    expect(spans).toContain('code=[redacted]&state=[redacted]');
  });
});
