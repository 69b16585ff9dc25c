import request from 'supertest';
import { runCli } from '../../src/cli/run-cli';
import { createTenant, dataSourceOf, testConfig, TestTenant } from '../support/app';
import { chooseWelcomePassword, signIn, TEST_PASSWORD, welcomePath } from '../support/console';
import { useTestApp } from '../support/use-test-app';

const PUBLIC_URL = 'https://skills.example.com';

/** Runs a command in-process and answers its one JSON object. */
async function cliJson(...argv: string[]): Promise<{ code: number; json: Record<string, any> }> {
  let stdout = '';
  const code = await runCli(
    [...argv, '--json'],
    { stdout: (chunk) => (stdout += chunk), stderr: () => undefined },
    testConfig({ publicUrl: PUBLIC_URL }),
  );
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return { code, json: JSON.parse(lines[0]) };
}

const suite = useTestApp({ config: { publicUrl: PUBLIC_URL }, tenant: 'none' });
let tenant: TestTenant;
let orgName: string;

beforeAll(async () => {
  tenant = await createTenant(suite.app, 'Cli people');
  [{ name: orgName }] = await dataSourceOf(suite.app).query<Array<{ name: string }>>(
    `SELECT name FROM organisations WHERE id = $1`,
    [tenant.organisationId],
  );
});

const email = () => `cli-${Math.random().toString(36).slice(2)}@example.com`;

describe('user commands', () => {
  it('invites a person by organisation name, prints {id,email,role,link}, and the link lets them choose a password', async () => {
    const address = email();
    const { code, json } = await cliJson('user', 'invite', '--org', orgName, '--email', address, '--role', 'admin');
    expect(code).toBe(0);
    expect(json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: address,
      role: 'admin',
      link: expect.stringMatching(/^https:\/\/skills\.example\.com\/console\/welcome\/[\w-]{43}$/),
    });
    expect(
      (await chooseWelcomePassword(request.agent(suite.app.getHttpServer()), json.link, TEST_PASSWORD)).status,
    ).toBe(303);
    expect((await signIn(suite.app, address, TEST_PASSWORD)).response.status).toBe(303);
  });

  it('refuses a role other than admin or viewer, and an email someone has', async () => {
    expect((await cliJson('user', 'invite', '--org', orgName, '--email', email(), '--role', 'owner')).json).toEqual({
      error: { message: expect.stringContaining('admin or viewer'), code: 'VALIDATION_ERROR' },
    });
    const address = email();
    await cliJson('user', 'invite', '--org', tenant.organisationId, '--email', address, '--role', 'viewer');
    const again = await cliJson(
      'user',
      'invite',
      '--org',
      orgName,
      '--email',
      address.toUpperCase(),
      '--role',
      'viewer',
    );
    expect(again).toEqual({ code: 1, json: { error: { message: expect.any(String), code: 'CONFLICT' } } });
  });

  it('resets a link: the new one works, the earlier one no longer does', async () => {
    const address = email();
    const first = (await cliJson('user', 'invite', '--org', orgName, '--email', address, '--role', 'viewer')).json;
    const reset = await cliJson('user', 'reset', '--email', address.toUpperCase());
    expect(reset).toEqual({
      code: 0,
      json: { id: first.id, email: address, role: 'viewer', link: expect.not.stringMatching(first.link) },
    });
    await request(suite.app.getHttpServer()).get(welcomePath(first.link)).expect(404);
    await request(suite.app.getHttpServer()).get(welcomePath(reset.json.link)).expect(303);
  });

  it('lists and removes people', async () => {
    const own = await createTenant(suite.app, 'Listed');
    const admin = email();
    const viewer = email();
    await cliJson('user', 'invite', '--org', own.organisationId, '--email', admin, '--role', 'admin');
    await cliJson('user', 'invite', '--org', own.organisationId, '--email', viewer, '--role', 'viewer');
    const listed = await cliJson('user', 'list', '--org', own.organisationId);
    expect(
      listed.json.users.map(({ email: address, role }: { email: string; role: string }) => `${address} ${role}`).sort(),
    ).toEqual([`${admin} admin`, `${viewer} viewer`].sort());
    expect(listed.json.users[0]).toEqual({
      id: expect.any(String),
      email: expect.any(String),
      role: expect.any(String),
      createdAt: expect.any(String),
      lastSignInAt: null,
    });
    expect(await cliJson('user', 'remove', '--email', viewer)).toEqual({
      code: 0,
      json: { id: expect.any(String), email: viewer, removed: true },
    });
    expect((await cliJson('user', 'remove', '--email', admin)).json.error.code).toBe('CONFLICT');
    expect((await cliJson('user', 'remove', '--email', viewer)).json.error.code).toBe('NOT_FOUND');
    expect((await cliJson('user', 'list', '--org', own.organisationId)).json.users).toHaveLength(1);
  });
});

describe('sso commands', () => {
  it('sets an organisation’s provider with its secret sealed, and removes it', async () => {
    const own = await createTenant(suite.app, 'Signed on');
    const set = await cliJson(
      'sso',
      'set',
      '--org',
      own.organisationId,
      '--issuer',
      'https://id.example.com',
      '--client-id',
      'skills-console',
      '--client-secret',
      'a-client-secret-of-some-length',
    );
    expect(set).toEqual({
      code: 0,
      json: { organisationId: own.organisationId, issuer: 'https://id.example.com', clientId: 'skills-console' },
    });
    const [row] = await dataSourceOf(suite.app).query<Array<{ client_secret_sealed: Buffer }>>(
      `SELECT client_secret_sealed FROM console_sso WHERE organisation_id = $1`,
      [own.organisationId],
    );
    expect(row.client_secret_sealed.includes(Buffer.from('a-client-secret'))).toBe(false);
    expect(await cliJson('sso', 'remove', '--org', own.organisationId)).toEqual({
      code: 0,
      json: { organisationId: own.organisationId, removed: true },
    });
    expect((await cliJson('sso', 'remove', '--org', own.organisationId)).json.error.code).toBe('NOT_FOUND');
  });

  it('refuses an issuer that is not https', async () => {
    const refused = await cliJson(
      'sso',
      'set',
      '--org',
      orgName,
      '--issuer',
      'http://id.example.com',
      '--client-id',
      'x',
      '--client-secret',
      'y',
    );
    expect(refused).toEqual({
      code: 1,
      json: { error: { message: expect.stringContaining('https'), code: 'VALIDATION_ERROR' } },
    });
  });

  it('puts its changes and the command line’s key changes into the activity log as cli', async () => {
    const own = await createTenant(suite.app, 'Audited');
    const created = await cliJson('api-key', 'create', '--org', own.organisationId, '--name', 'nightly');
    await cliJson('api-key', 'revoke', created.json.id);
    await cliJson('user', 'invite', '--org', own.organisationId, '--email', email(), '--role', 'admin');
    const rows = await dataSourceOf(suite.app).query<Array<{ actor: string; action: string; target: string }>>(
      `SELECT actor, action, target FROM console_activity WHERE organisation_id = $1 ORDER BY id`,
      [own.organisationId],
    );
    expect(rows.map(({ actor, action }) => `${actor} ${action}`)).toEqual([
      'cli key created',
      'cli key revoked',
      'cli person invited',
    ]);
    expect(rows[0].target).toBe(`nightly (${created.json.id})`);
  });
});
