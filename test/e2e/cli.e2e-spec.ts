import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { runCli } from '../../src/cli/run-cli';
import { createTestApp, dataSourceOf, testConfig } from '../support/app';
import { ProbeModule } from '../support/probe.module';

/** Runs a command in-process and captures what it prints. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (chunk) => (stdout += chunk), stderr: (chunk) => (stderr += chunk) }, testConfig());
  return { code, stdout, stderr };
}

function onlyJsonObject(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

describe('operator command line', () => {
  let app: NestExpressApplication;
  const orgName = `Acme ${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    app = await createTestApp({}, [ProbeModule]);
  });
  afterAll(() => app.close());

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
    expect(key).toEqual({ id: expect.any(String), organisationId: expect.any(String), key: expect.stringMatching(/^sk_/) });

    const probe = await request(app.getHttpServer()).get('/api/v1/probe').set('Authorization', `Bearer ${key.key}`);
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
    const [row] = await dataSourceOf(app).query('SELECT * FROM api_keys WHERE id = $1', [created.id]);
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

  it('explains a usage mistake', async () => {
    const wrong = await cli('api-key', 'create', '--json');
    expect(wrong.code).toBe(1);
    expect(onlyJsonObject(wrong.stdout)).toEqual({ error: { message: expect.stringContaining('--org'), code: 'USAGE' } });
  });
});
