import { ModuleMetadata } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { createApp, CreateAppOptions } from '../../src/app.factory';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { OrganisationsService } from '../../src/auth/organisations.service';
import { AppConfig, loadConfig } from '../../src/config/config';
import { replicaUrlsFor } from './replica-urls';

/** A fixed key for encrypting webhook secrets in tests. */
export const TEST_WEBHOOK_SECRET_KEY = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is set by the global setup');
  // In the run on replicas (.ci/run), an app on the test database reads on its replicas; not one reaching the
  // database another way (a proxy that fails it on purpose, PgBouncer), whose requests must all go that way.
  const onTestDatabase = (overrides.databaseUrl ?? databaseUrl) === databaseUrl;
  const replicaUrls = (onTestDatabase && replicaUrlsFor(databaseUrl)?.split(',')) || [];
  return {
    ...loadConfig({
      DATABASE_URL: databaseUrl,
      // Set when the run goes through PgBouncer: LISTEN and the migration lock bypass it.
      DATABASE_DIRECT_URL: process.env.TEST_DATABASE_DIRECT_URL,
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      // High enough that no test meets it unless it means to.
      RATE_LIMIT_PER_MINUTE: '100000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    }),
    databaseReplicaUrls: replicaUrls,
    ...overrides,
  };
}

/** The real application, on the test database, initialised but not listening (supertest drives it). */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  extraImports: ModuleMetadata['imports'] = [],
  options: CreateAppOptions = {},
): Promise<NestExpressApplication> {
  const config = testConfig(overrides);
  // The global setup says 1 on the embedded database, which is one session.
  const poolSize = Number(process.env.TEST_DATABASE_POOL_SIZE ?? 4);
  const runtime = { config, databaseUrl: config.databaseUrl!, poolSize, embedded: false, close: async () => {} };
  const app = await createApp(runtime, extraImports, options);
  await app.init();
  return app;
}

export interface TestTenant {
  organisationId: string;
  key: string;
  keyId: string;
  /** The Authorization header value. */
  bearer: string;
}

/** A fresh organisation with one key: each test file makes its own, so files never see each other's rows. */
export async function createTenant(app: NestExpressApplication, name = 'Org'): Promise<TestTenant> {
  const organisation = await app.get(OrganisationsService).create(`${name} ${Math.random().toString(36).slice(2)}`);
  const created = await app.get(ApiKeysService).create(organisation.id, { name: 'test' });
  return { organisationId: organisation.id, key: created.key, keyId: created.id, bearer: `Bearer ${created.key}` };
}

export function dataSourceOf(app: NestExpressApplication): DataSource {
  return app.get(DataSource);
}
