import request from 'supertest';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { PeopleService } from '../../src/console/people/people.service';
import { RetentionJob } from '../../src/retention/retention.job';
import { createTenant, createTestApp, dataSourceOf, TestTenant } from '../support/app';
import { consolePerson, signIn, TEST_PASSWORD, welcomePath } from '../support/console';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';

const suite = useTestApp({ config: { publicUrl: 'http://console.test' }, tenant: 'none' });
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await createTenant(suite.app, 'Console');
});

const cookieOf = (response: request.Response, name: string) =>
  ([] as string[]).concat(response.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith(`${name}=`));

describe('signing in', () => {
  it('shows the sign-in page with its fields, under a strict CSP and no cache', async () => {
    const response = await request(suite.app.getHttpServer()).get('/console/sign-in').expect(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.text).toContain('<label for="email">Email</label>');
    expect(response.text).toContain('<label for="password">Password</label>');
    expect(response.text).toContain('>Sign in</button>');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'self'; base-uri 'none'; object-src 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('signs in with the password chosen through the welcome link, with an HttpOnly, SameSite=Lax cookie under /console', async () => {
    const person = await consolePerson(suite.app, tenant.organisationId, 'admin');
    const { agent, response } = await signIn(suite.app, person.email.toUpperCase(), TEST_PASSWORD);
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('/console/api-keys');
    const cookie = cookieOf(response, 'console_session')!;
    expect(cookie).toMatch(/^console_session=[\w-]{43}; Path=\/console; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    const page = await agent.get('/console/people').expect(200);
    expect(page.text).toContain(person.email);
  });

  it('gives a new session id at every sign-in', async () => {
    const person = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    const first = cookieOf((await signIn(suite.app, person.email, TEST_PASSWORD)).response, 'console_session');
    const second = cookieOf((await signIn(suite.app, person.email, TEST_PASSWORD)).response, 'console_session');
    expect(first).toBeDefined();
    expect(second).not.toBe(first);
  });

  it('says the same for a wrong password and an unknown email', async () => {
    const person = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    const wrong = await signIn(suite.app, person.email, 'not the password at all');
    const unknown = await signIn(suite.app, 'nobody-here@example.com', TEST_PASSWORD);
    expect(wrong.response.status).toBe(401);
    expect(unknown.response.status).toBe(401);
    const message = (text: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(text)?.[1];
    expect(message(wrong.response.text)).toBeDefined();
    expect(message(unknown.response.text)).toBe(message(wrong.response.text));
    expect(cookieOf(wrong.response, 'console_session')).toBeUndefined();
  });

  it('locks an email after five failures within 15 minutes, saying only what a wrong password says', async () => {
    const person = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    const refusal = (await signIn(suite.app, person.email, 'wrong password 0')).response.text;
    for (let attempt = 1; attempt < 5; attempt++) {
      expect((await signIn(suite.app, person.email, `wrong password ${attempt}`)).response.status).toBe(401);
    }
    const locked = await signIn(suite.app, person.email, TEST_PASSWORD);
    expect(locked.response.status).toBe(401);
    expect(locked.response.text).toBe(refusal);
    // Fifteen minutes on (the failures moved back in time), the right password works again.
    await dataSourceOf(suite.app).query(
      `UPDATE console_failed_sign_ins SET attempted_at = attempted_at - interval '15 minutes' WHERE email = lower($1)`,
      [person.email],
    );
    expect((await signIn(suite.app, person.email, TEST_PASSWORD)).response.status).toBe(303);
  });

  it('sends a request without a session to the sign-in page', async () => {
    const response = await request(suite.app.getHttpServer()).get('/console/people').expect(303);
    expect(response.headers.location).toBe('/console/sign-in');
  });
});

describe('sessions', () => {
  it('ends at sign-out: the cookie no longer opens a page', async () => {
    const person = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    const session = cookieOf((await signIn(suite.app, person.email, TEST_PASSWORD)).response, 'console_session')!;
    const cookie = session.split(';')[0];
    await request(suite.app.getHttpServer()).get('/console/people').set('Cookie', cookie).expect(200);
    await request(suite.app.getHttpServer()).post('/console/sign-out').set('Cookie', cookie).expect(303);
    const after = await request(suite.app.getHttpServer()).get('/console/people').set('Cookie', cookie).expect(303);
    expect(after.headers.location).toBe('/console/sign-in');
  });

  it('ends after CONSOLE_SESSION_IDLE_MINUTES without a request, and 12 hours after sign-in in any case', async () => {
    const person = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    await person.agent.get('/console/people').expect(200);
    await dataSourceOf(suite.app).query(
      `UPDATE console_sessions SET last_activity_at = now() - interval '31 minutes' WHERE user_id = $1`,
      [person.id],
    );
    await person.agent.get('/console/people').expect(303);

    const again = (await signIn(suite.app, person.email, TEST_PASSWORD)).agent;
    await dataSourceOf(suite.app).query(
      `UPDATE console_sessions SET created_at = now() - interval '12 hours 1 minute' WHERE user_id = $1`,
      [person.id],
    );
    await again.get('/console/people').expect(303);
  });

  it('writes a session’s last activity at most once a minute', async () => {
    const person = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    const lastActivity = async () => {
      const [row] = await dataSourceOf(suite.app).query<Array<{ last_activity_at: Date }>>(
        `SELECT last_activity_at FROM console_sessions WHERE user_id = $1`,
        [person.id],
      );
      return row.last_activity_at.getTime();
    };
    const started = await lastActivity();
    await person.agent.get('/console/people').expect(200);
    expect(await lastActivity()).toBe(started);
    await dataSourceOf(suite.app).query(
      `UPDATE console_sessions SET last_activity_at = last_activity_at - interval '2 minutes' WHERE user_id = $1`,
      [person.id],
    );
    const moved = await lastActivity();
    await person.agent.get('/console/people').expect(200);
    await waitUntil(async () => (await lastActivity()) > moved, 'the activity is written', { timeoutMs: 5000 });
  });

  it('marks the cookie Secure behind a trusted proxy that says HTTPS, and not for an untrusted one', async () => {
    const person = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    const untrusted = await request(suite.app.getHttpServer())
      .post('/console/sign-in')
      .set('X-Forwarded-Proto', 'https')
      .type('form')
      .send({ email: person.email, password: TEST_PASSWORD });
    expect(cookieOf(untrusted, 'console_session')).not.toContain('Secure');

    const proxied = await createTestApp({ consoleTrustedProxies: ['127.0.0.0/8', '::1/128'] });
    try {
      const trusted = await request(proxied.getHttpServer())
        .post('/console/sign-in')
        .set('X-Forwarded-Proto', 'https')
        .set('Origin', 'https://console.proxied')
        .set('Host', 'console.proxied')
        .type('form')
        .send({ email: person.email, password: TEST_PASSWORD });
      expect(trusted.status).toBe(303);
      expect(cookieOf(trusted, 'console_session')).toMatch(/; Secure$/);
    } finally {
      await proxied.close();
    }
  });
});

describe('changes come only from the console’s own pages', () => {
  it.each([
    [{ Origin: 'https://evil.example' }],
    [{ Origin: 'null', 'Sec-Fetch-Site': 'cross-site' }],
    [{ 'Sec-Fetch-Site': 'cross-site' }],
    [{ 'Sec-Fetch-Site': 'same-site' }],
  ])('refuses a change with %p, whatever its cookie', async (headers) => {
    const admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
    const response = await admin.agent
      .post('/console/people')
      .set(headers)
      .type('form')
      .send({ email: `forged-${Math.random()}@example.com`, role: 'admin' });
    expect(response.status).toBe(403);
    const people = await suite.app.get(PeopleService).list(tenant.organisationId);
    expect(people.map(({ email }) => email).filter((email) => email.startsWith('forged-'))).toEqual([]);
  });

  it('refuses a cross-site sign-in too', async () => {
    const person = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    const response = await request(suite.app.getHttpServer())
      .post('/console/sign-in')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ email: person.email, password: TEST_PASSWORD });
    expect(response.status).toBe(403);
    expect(cookieOf(response, 'console_session')).toBeUndefined();
  });

  it('takes a change from its own origin, or from PUBLIC_URL', async () => {
    const admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
    const host = '127.0.0.1:3999';
    for (const origin of [`http://${host}`, 'http://console.test']) {
      const email = `own-${Math.random().toString(36).slice(2)}@example.com`;
      await admin.agent
        .post('/console/people')
        .set({ Host: host, Origin: origin, 'Sec-Fetch-Site': 'same-origin' })
        .type('form')
        .send({ email, role: 'viewer' })
        .expect(303);
      expect((await suite.app.get(PeopleService).findByEmail(email)).organisationId).toBe(tenant.organisationId);
    }
  });
});

describe('people', () => {
  it('shows an admin the invite form, a role choice and Remove per row, and a viewer none of them', async () => {
    const admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
    const viewer = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    const adminPage = (await admin.agent.get('/console/people').expect(200)).text;
    for (const text of [
      '>Invite person</button>',
      '>Remove</button>',
      '>Change role</button>',
      '<th scope="col">Last sign-in</th>',
    ]) {
      expect(adminPage).toContain(text);
    }
    const viewerPage = (await viewer.agent.get('/console/people').expect(200)).text;
    expect(viewerPage).toContain('<th scope="col">Email</th>');
    for (const text of [
      'Invite person',
      '>Remove</button>',
      '<select',
      '<form method="post" action="/console/people',
    ]) {
      expect(viewerPage).not.toContain(text);
    }
  });

  it('refuses a change forged by a viewer', async () => {
    const viewer = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    const admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
    await viewer.agent.post('/console/people').type('form').send({ email: 'x@example.com', role: 'admin' }).expect(403);
    await viewer.agent.post(`/console/people/${viewer.id}/role`).type('form').send({ role: 'admin' }).expect(403);
    await viewer.agent.post(`/console/people/${admin.id}/remove`).expect(403);
    expect((await suite.app.get(PeopleService).findByEmail(viewer.email)).role).toBe('viewer');
  });

  it('invites a person and shows the welcome link once, which works once', async () => {
    const admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
    const email = `invited-${Math.random().toString(36).slice(2)}@example.com`;
    const invited = await admin.agent.post('/console/people').type('form').send({ email, role: 'viewer' }).expect(303);
    expect(invited.headers.location).toBe('/console/people');
    const page = (await admin.agent.get('/console/people').expect(200)).text;
    const link = /<label for="revealed">Welcome link<\/label>[\s\S]*?value="([^"]+)"/.exec(page)?.[1];
    expect(link).toMatch(/^http:\/\/console\.test\/console\/welcome\/[\w-]{43}$/);
    // Shown once: the next view has no link.
    expect((await admin.agent.get('/console/people').expect(200)).text).not.toContain('Welcome link');
    const browser = request.agent(suite.app.getHttpServer());
    await browser.get(welcomePath(link!)).expect(303).expect('Location', '/console/welcome');
    expect((await browser.get('/console/welcome').expect(200)).text).toContain(email);
    await browser.post('/console/welcome').type('form').send({ password: 'short' }).expect(400);
    await browser.post('/console/welcome').type('form').send({ password: TEST_PASSWORD }).expect(303);
    await request(suite.app.getHttpServer()).get(welcomePath(link!)).expect(404);
    await request(suite.app.getHttpServer())
      .post(welcomePath(link!))
      .type('form')
      .send({ password: TEST_PASSWORD })
      .expect(404);
    expect((await signIn(suite.app, email, TEST_PASSWORD)).response.status).toBe(303);
  });

  it('refuses a welcome link older than 72 hours', async () => {
    const email = `late-${Math.random().toString(36).slice(2)}@example.com`;
    const { link, person } = await suite.app
      .get(PeopleService)
      .invite(tenant.organisationId, { email, role: 'viewer' }, { type: 'cli' });
    await dataSourceOf(suite.app).query(
      `UPDATE console_welcome_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [person.id],
    );
    await request(suite.app.getHttpServer()).get(welcomePath(link)).expect(404);
  });

  it('refuses an email that anyone has, in any case', async () => {
    const admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
    const other = await createTenant(suite.app, 'Other');
    const taken = await consolePerson(suite.app, other.organisationId, 'viewer');
    await admin.agent
      .post('/console/people')
      .type('form')
      .send({ email: taken.email.toUpperCase(), role: 'viewer' })
      .expect(303);
    expect((await admin.agent.get('/console/people')).text).toContain('is in the console already');
  });

  it('changes a role and removes a person, ending their sessions at once', async () => {
    const admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
    const person = await consolePerson(suite.app, tenant.organisationId, 'viewer');
    await person.agent.get('/console/people').expect(200);
    await admin.agent.post(`/console/people/${person.id}/role`).type('form').send({ role: 'admin' }).expect(303);
    await person.agent.get('/console/people').expect(303);
    expect((await suite.app.get(PeopleService).findByEmail(person.email)).role).toBe('admin');

    const again = (await signIn(suite.app, person.email, TEST_PASSWORD)).agent;
    await again.get('/console/people').expect(200);
    await admin.agent.post(`/console/people/${person.id}/remove`).expect(303);
    await again.get('/console/people').expect(303);
    expect((await signIn(suite.app, person.email, TEST_PASSWORD)).response.status).toBe(401);
  });

  it('keeps the last admin of an organisation', async () => {
    const alone = await createTenant(suite.app, 'Alone');
    const admin = await consolePerson(suite.app, alone.organisationId, 'admin');
    await admin.agent.post(`/console/people/${admin.id}/role`).type('form').send({ role: 'viewer' }).expect(303);
    expect((await admin.agent.get('/console/people').expect(200)).text).toContain('keeps the admin role');
    await admin.agent.post(`/console/people/${admin.id}/remove`).expect(303);
    expect((await admin.agent.get('/console/people').expect(200)).text).toContain('cannot be removed');
    expect((await suite.app.get(PeopleService).findByEmail(admin.email)).role).toBe('admin');
  });

  it('answers 404 for a person of another organisation, and changes nothing', async () => {
    const admin = await consolePerson(suite.app, tenant.organisationId, 'admin');
    const other = await createTenant(suite.app, 'Elsewhere');
    const stranger = await consolePerson(suite.app, other.organisationId, 'viewer');
    await admin.agent.post(`/console/people/${stranger.id}/role`).type('form').send({ role: 'admin' }).expect(404);
    await admin.agent.post(`/console/people/${stranger.id}/remove`).expect(404);
    await admin.agent.post('/console/people/not-an-id/remove').expect(404);
    expect((await suite.app.get(PeopleService).findByEmail(stranger.email)).role).toBe('viewer');
    const page = (await admin.agent.get('/console/people').expect(200)).text;
    expect(page).not.toContain(stranger.email);
  });
});

describe('activity', () => {
  it('lists the organisation’s console actions and command-line key changes, newest first, with who and from where', async () => {
    const own = await createTenant(suite.app, 'Active');
    const admin = await consolePerson(suite.app, own.organisationId, 'admin');
    await admin.agent
      .post('/console/people')
      .type('form')
      .send({ email: `a-${Math.random()}@example.com`, role: 'viewer' });
    const key = await suite.app
      .get(ApiKeysService)
      .create(own.organisationId, { name: 'from the cli' }, { type: 'cli' });
    await suite.app.get(ApiKeysService).revoke(key.id, { type: 'cli' });
    await signIn(suite.app, admin.email, 'a wrong password here');
    const page = (await admin.agent.get('/console/activity').expect(200)).text;
    const rows = [
      ...page.matchAll(/<td data-label="Who" class="break">([^<]*)<\/td>\s*<td data-label="Action">([^<]*)<\/td>/g),
    ].map(([, who, action]) => `${who} ${action}`);
    expect(rows).toEqual([
      `${admin.email} failed sign-in`,
      'cli key revoked',
      'cli key created',
      `${admin.email} person invited`,
      `${admin.email} sign-in`,
      `${admin.email} password chosen`,
      'cli person invited',
    ]);
    expect(page).toContain('<td data-label="Client address">127.0.0.1</td>');
  });

  it('pages by Older and Newer, 50 a page', async () => {
    const own = await createTenant(suite.app, 'Busy');
    const admin = await consolePerson(suite.app, own.organisationId, 'admin');
    for (let index = 0; index < 60; index++) {
      await suite.app.get(ApiKeysService).create(own.organisationId, { name: `key ${index}` }, { type: 'cli' });
    }
    const first = (await admin.agent.get('/console/activity').expect(200)).text;
    expect(first.match(/<tr>/g)).toHaveLength(51);
    expect(first).toContain('key 59 (');
    expect(first).not.toContain('>Newer<');
    const older = /href="(\/console\/activity\?before=[0-9a-f-]{36})">Older/.exec(first)![1];
    const second = (await admin.agent.get(older).expect(200)).text;
    expect(second).toContain('key 0 (');
    expect(second).not.toContain('>Older<');
    const newer = /href="(\/console\/activity\?after=[0-9a-f-]{36})">Newer/.exec(second)![1];
    const back = (await admin.agent.get(newer).expect(200)).text;
    expect(back).toContain('key 59 (');
  });
});

describe('retention', () => {
  it('keeps activity 400 days, sessions 12 hours and failed sign-ins as long as they can lock', async () => {
    const own = await createTenant(suite.app, 'Retained');
    const person = await consolePerson(suite.app, own.organisationId, 'viewer');
    await signIn(suite.app, person.email, 'a wrong password here');
    const database = dataSourceOf(suite.app);
    await database.query(
      `UPDATE console_activity SET at = now() - interval '401 days' WHERE organisation_id = $1 AND action = 'person invited'`,
      [own.organisationId],
    );
    await database.query(`UPDATE console_sessions SET created_at = now() - interval '13 hours' WHERE user_id = $1`, [
      person.id,
    ]);
    await database.query(
      `UPDATE console_failed_sign_ins SET attempted_at = now() - interval '31 minutes' WHERE email = lower($1)`,
      [person.email],
    );
    const report = await suite.app.get(RetentionJob).run(new Date());
    expect(report?.['console activity, sessions, welcome links and failed sign-ins'].removed).toBeGreaterThanOrEqual(3);
    const actions = await database.query<Array<{ action: string }>>(
      `SELECT action FROM console_activity WHERE organisation_id = $1 ORDER BY id`,
      [own.organisationId],
    );
    expect(actions.map(({ action }) => action)).toEqual(['password chosen', 'sign-in', 'failed sign-in']);
    const left = await database.query<Array<{ sessions: number; failures: number }>>(
      `SELECT (SELECT count(*)::int FROM console_sessions WHERE user_id = $1) AS sessions,
              (SELECT count(*)::int FROM console_failed_sign_ins WHERE email = lower($2)) AS failures`,
      [person.id, person.email],
    );
    expect(left).toEqual([{ sessions: 0, failures: 0 }]);
  });
});

describe('the console beside the API', () => {
  it('serves its assets with long caching, and 404 pages for anything else under /console', async () => {
    const page = (await request(suite.app.getHttpServer()).get('/console/sign-in')).text;
    const css = /href="(\/console\/assets\/console\.[0-9a-f]{12}\.css)"/.exec(page)![1];
    const asset = await request(suite.app.getHttpServer()).get(css).expect(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toBe('text/css; charset=utf-8');
    const missing = await request(suite.app.getHttpServer()).get('/console/no-such-page').expect(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    await request(suite.app.getHttpServer()).get('/console/assets/console.css').expect(404);
  });

  it('needs no API key, and the API still needs one and carries no console header', async () => {
    await request(suite.app.getHttpServer()).get('/console/sign-in').expect(200);
    const api = await request(suite.app.getHttpServer()).get('/api/v1/me').expect(401);
    expect(api.headers['content-security-policy']).toBeUndefined();
    expect(api.body).toEqual({ success: false, error: expect.objectContaining({ code: 'UNAUTHORIZED' }) });
    await request(suite.app.getHttpServer()).get('/api/v1/me').set('Authorization', tenant.bearer).expect(200);
  });

  it('is 404 everywhere with CONSOLE_ENABLED=false', async () => {
    const off = await createTestApp({ consoleEnabled: false });
    try {
      for (const path of ['/console', '/console/sign-in', '/console/people', '/console/assets/x.css']) {
        await request(off.getHttpServer()).get(path).expect(404);
      }
      await request(off.getHttpServer())
        .post('/console/sign-in')
        .type('form')
        .send({ email: 'a@b', password: 'x' })
        .expect(404);
    } finally {
      await off.close();
    }
  });
});
