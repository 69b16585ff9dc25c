import request from 'supertest';
import { runCli } from '../../src/cli/run-cli';
import { dataSourceOf, testConfig } from '../support/app';
import { ProbeModule } from '../support/probe.module';
import { useTestApp } from '../support/use-test-app';

/** Runs a command in-process and captures what it prints. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    argv,
    { stdout: (chunk) => (stdout += chunk), stderr: (chunk) => (stderr += chunk) },
    testConfig(),
  );
  return { code, stdout, stderr };
}

function onlyJsonObject(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

describe('operator command line', () => {
  const suite = useTestApp({ imports: [ProbeModule], tenant: 'none' });
  const orgName = `Acme ${Math.random().toString(36).slice(2)}`;

  it('creates an organisation, prints exactly one JSON object, and refuses a duplicate name', async () => {
    const created = await cli('org', 'create', orgName, '--json');
    expect(created.code).toBe(0);
    expect(onlyJsonObject(created.stdout)).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: orgName });

    const duplicate = await cli('org', 'create', orgName.toUpperCase(), '--json');
    expect(duplicate.code).toBe(1);
    expect(onlyJsonObject(duplicate.stdout)).toEqual({ error: { message: expect.any(String), code: 'CONFLICT' } });
  });

  it('creates a working key for an organisation named by name or id, and revokes it', async () => {
    const byName = await cli('api-key', 'create', '--org', orgName, '--label', 'hr sync', '--json');
    expect(byName.code).toBe(0);
    const key = onlyJsonObject(byName.stdout) as { id: string; organisationId: string; key: string };
    expect(key).toEqual({
      id: expect.any(String),
      organisationId: expect.any(String),
      name: 'hr sync',
      scopes: ['read', 'write', 'webhooks', 'events', 'privacy'],
      expiresAt: null,
      key: expect.stringMatching(/^sk_/),
    });

    const probe = await request(suite.app.getHttpServer())
      .get('/api/v1/probe')
      .set('Authorization', `Bearer ${key.key}`);
    expect(probe.body.data).toEqual({ organisationId: key.organisationId });

    const byId = await cli('api-key', 'create', '--org', key.organisationId, '--json');
    expect((onlyJsonObject(byId.stdout) as { organisationId: string }).organisationId).toBe(key.organisationId);

    const revoked = await cli('api-key', 'revoke', key.id, '--json');
    expect(revoked.code).toBe(0);
    expect(onlyJsonObject(revoked.stdout)).toEqual({ id: key.id, revoked: true });
  });

  it('stores keys only as SHA-256 hashes', async () => {
    const created = onlyJsonObject((await cli('api-key', 'create', '--org', orgName, '--json')).stdout) as {
      id: string;
      key: string;
    };
    const [row] = await dataSourceOf(suite.app).query('SELECT * FROM api_keys WHERE id = $1', [created.id]);
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names an unknown organisation or key', async () => {
    const unknownOrg = await cli('api-key', 'create', '--org', 'No Such Org', '--json');
    expect(unknownOrg.code).toBe(1);
    expect(onlyJsonObject(unknownOrg.stdout)).toEqual({
      error: { message: expect.stringContaining('No Such Org'), code: 'NOT_FOUND' },
    });
    const unknownKey = await cli('api-key', 'revoke', '0190f0f0-0000-7000-8000-000000000000');
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toContain('not found');
  });

  it('reports no pending migration on a migrated database', async () => {
    const migrated = await cli('db', 'migrate', '--json');
    expect(migrated.code).toBe(0);
    expect(onlyJsonObject(migrated.stdout)).toEqual({ applied: [] });
  });

  it('refuses an empty or blank organisation name, and trims the name it keeps', async () => {
    for (const blank of ['', '   ', '\t']) {
      const refused = await cli('org', 'create', blank, '--json');
      expect(refused.code).toBe(1);
      expect(onlyJsonObject(refused.stdout)).toEqual({
        error: { message: 'An organisation name must not be empty', code: 'VALIDATION_ERROR' },
      });
    }
    const name = `Spaced ${Math.random().toString(36).slice(2)}`;
    const created = await cli('org', 'create', `  ${name} `, '--json');
    expect(onlyJsonObject(created.stdout)).toMatchObject({ name });
  });

  it('lists the organisations, oldest first, as one JSON object or as a table', async () => {
    const listed = await cli('org', 'list', '--json');
    expect(listed.code).toBe(0);
    const { organisations } = onlyJsonObject(listed.stdout) as {
      organisations: Array<{ id: string; name: string; createdAt: string }>;
    };
    const acme = organisations.find((organisation) => organisation.name === orgName);
    expect(acme).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: orgName,
      createdAt: expect.any(String),
    });
    expect(new Date(acme!.createdAt).toISOString()).toBe(acme!.createdAt);
    const times = organisations.map((organisation) => organisation.createdAt);
    expect([...times].sort()).toEqual(times);

    const text = await cli('org', 'list');
    expect(text.stdout.split('\n')[0]).toMatch(/^ID +NAME +CREATED$/);
    expect(text.stdout).toMatch(new RegExp(`^${acme!.id}  ${orgName} +${acme!.createdAt}$`, 'm'));
  });

  it("lists an organisation's keys with id, name, scopes, creation, expiry, last use and revocation, never the key or its hash", async () => {
    const name = `Keys ${Math.random().toString(36).slice(2)}`;
    const { id: organisationId } = onlyJsonObject((await cli('org', 'create', name, '--json')).stdout) as {
      id: string;
    };
    const first = onlyJsonObject((await cli('api-key', 'create', '--org', name, '--label', 'sync', '--json')).stdout);
    const second = onlyJsonObject((await cli('api-key', 'create', '--org', organisationId, '--json')).stdout);
    await cli('api-key', 'revoke', first.id as string);

    const listed = await cli('api-key', 'list', '--org', name.toLowerCase(), '--json');
    expect(listed.code).toBe(0);
    expect(onlyJsonObject(listed.stdout)).toEqual({
      apiKeys: [
        {
          id: first.id,
          name: 'sync',
          scopes: ['read', 'write', 'webhooks', 'events', 'privacy'],
          createdAt: expect.any(String),
          expiresAt: null,
          lastUsedAt: null,
          revokedAt: expect.any(String),
        },
        {
          id: second.id,
          name: null,
          scopes: ['read', 'write', 'webhooks', 'events', 'privacy'],
          createdAt: expect.any(String),
          expiresAt: null,
          lastUsedAt: null,
          revokedAt: null,
        },
      ],
    });
    const [hashed] = await dataSourceOf(suite.app).query('SELECT key_hash FROM api_keys WHERE id = $1', [first.id]);
    for (const secret of [first.key, second.key, hashed.key_hash]) expect(listed.stdout).not.toContain(secret);

    const text = await cli('api-key', 'list', '--org', organisationId);
    expect(text.stdout.split('\n')[0]).toMatch(/^ID +NAME +SCOPES +CREATED +EXPIRES +LAST USED +REVOKED$/);
    expect(text.stdout).toMatch(
      new RegExp(`^${second.id as string}  - +read,write,webhooks,events,privacy +\\S+ +- +- +-$`, 'm'),
    );
    for (const secret of [first.key, second.key, hashed.key_hash]) expect(text.stdout).not.toContain(secret);

    const none = await cli('api-key', 'list', '--org', 'No Such Org', '--json');
    expect(onlyJsonObject(none.stdout)).toEqual({ error: { message: expect.any(String), code: 'NOT_FOUND' } });
  });

  it('creates a key with scopes, a name and an expiry, lists them, and the key can do only what its scopes say', async () => {
    const before = Date.now();
    const created = await cli(
      'api-key',
      'create',
      '--org',
      orgName,
      '--scopes',
      'events, read',
      '--name',
      'BI export',
      '--expires-in',
      '90d',
      '--json',
    );
    expect(created.code).toBe(0);
    const key = onlyJsonObject(created.stdout) as {
      id: string;
      organisationId: string;
      expiresAt: string;
      key: string;
    };
    expect(key).toMatchObject({ name: 'BI export', scopes: ['read', 'events'] });
    const ninetyDays = 90 * 86_400_000;
    expect(Date.parse(key.expiresAt)).toBeGreaterThanOrEqual(before + ninetyDays);
    expect(Date.parse(key.expiresAt)).toBeLessThanOrEqual(Date.now() + ninetyDays);

    const server = suite.app.getHttpServer();
    const bearer = `Bearer ${key.key}`;
    expect((await request(server).get('/api/v1/employees').set('Authorization', bearer)).status).toBe(200);
    const write = await request(server).post('/api/v1/employees').set('Authorization', bearer).send({});
    expect(write.status).toBe(403);
    expect(write.body).toEqual({
      success: false,
      error: { code: 'FORBIDDEN', message: 'This API key lacks the "write" scope' },
    });

    const listed = onlyJsonObject((await cli('api-key', 'list', '--org', key.organisationId, '--json')).stdout) as {
      apiKeys: Array<{ id: string }>;
    };
    expect(listed.apiKeys.find(({ id }) => id === key.id)).toEqual({
      id: key.id,
      name: 'BI export',
      scopes: ['read', 'events'],
      createdAt: expect.any(String),
      expiresAt: key.expiresAt,
      lastUsedAt: expect.any(String),
      revokedAt: null,
    });

    for (const [duration, ms] of [
      ['12h', 12 * 3_600_000],
      ['30m', 30 * 60_000],
    ] as const) {
      const short = onlyJsonObject(
        (await cli('api-key', 'create', '--org', orgName, '--expires-in', duration, '--json')).stdout,
      ) as { expiresAt: string };
      expect(Math.abs(Date.parse(short.expiresAt) - (Date.now() + ms))).toBeLessThan(60_000);
    }
  });

  it('refuses an unknown scope, an empty scope list or a malformed duration, creating no key', async () => {
    const name = `Refused ${Math.random().toString(36).slice(2)}`;
    await cli('org', 'create', name);
    const refusals: Array<[string[], string]> = [
      [['--scopes', 'read,admin'], 'admin'],
      [['--scopes', ''], 'read, write, webhooks, events'],
      [['--expires-in', '90'], '90'],
      [['--expires-in', '0d'], '0d'],
      [['--expires-in', '-1d'], '-1d'],
      [['--expires-in', '2w'], '2w'],
      [['--expires-in', '9999999d'], '9999999d'],
    ];
    for (const [options, named] of refusals) {
      const refused = await cli('api-key', 'create', '--org', name, ...options, '--json');
      expect(refused.code).toBe(1);
      expect(onlyJsonObject(refused.stdout)).toEqual({
        error: { message: expect.stringContaining(named), code: 'VALIDATION_ERROR' },
      });
      expect(refused.stderr).toContain(named);
    }
    const listed = onlyJsonObject((await cli('api-key', 'list', '--org', name, '--json')).stdout);
    expect(listed).toEqual({ apiKeys: [] });
  });

  it('explains a usage mistake once', async () => {
    const wrong = await cli('api-key', 'create', '--json');
    expect(wrong.code).toBe(1);
    expect(onlyJsonObject(wrong.stdout)).toEqual({
      error: { message: expect.stringContaining('--org'), code: 'USAGE' },
    });
    const text = await cli('api-key', 'create');
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toBe("required option '--org <id or name>' not specified\n");
  });

  it('answers a missing command with the help, and with one JSON error under --json', async () => {
    const bare = await cli();
    expect(bare.code).toBe(1);
    expect(bare.stderr).toMatch(/^Usage: skills-service \[options\] \[command\]/);
    expect(bare.stderr).not.toContain('outputHelp');

    const json = await cli('--json');
    expect(json.code).toBe(1);
    expect(onlyJsonObject(json.stdout)).toEqual({
      error: { message: expect.stringContaining('org, api-key, db, positions'), code: 'USAGE' },
    });
    const group = await cli('org', '--json');
    expect(onlyJsonObject(group.stdout)).toEqual({
      error: { message: 'skills-service org needs a command: create, list (see --help)', code: 'USAGE' },
    });
  });

  it('names itself skills-service in its help', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: skills-service \[options\] \[command\]/);
    expect(help.stdout).not.toMatch(/\bcli\b/);
  });
});
