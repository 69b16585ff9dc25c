import { ModuleMetadata } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { CreateAppOptions } from '../../src/app.factory';
import { AppConfig } from '../../src/config/config';
import { apiClient } from './api-client';
import { createTenant, createTestApp, TestTenant } from './app';

export interface TestAppOptions {
  /** Overrides of the test configuration. */
  config?: Partial<AppConfig>;
  /** Modules only tests mount (a probe controller, a trusted certificate). */
  imports?: ModuleMetadata['imports'];
  /** How the application runs (whether it dispatches webhooks). */
  app?: CreateAppOptions;
  /** A fresh tenant for each test (the default), one for the whole suite, or none. */
  tenant?: 'each' | 'once' | 'none';
}

/** The application of a suite, its tenant, and a client calling the API as that tenant. */
export interface TestAppContext {
  readonly app: NestExpressApplication;
  readonly tenant: TestTenant;
  readonly api: ReturnType<typeof apiClient>;
}

/**
 * Registers the hooks an e2e suite needs around the real application: made before the suite's tests
 * (createTestApp), a tenant made for each test or once, closed after them. Call it at the top of a
 * describe; read `app` and `tenant` inside hooks and tests, which run after the hooks that set them.
 */
export function useTestApp({
  config = {},
  imports = [],
  app: options = {},
  tenant: per = 'each',
}: TestAppOptions = {}): TestAppContext {
  let app: NestExpressApplication | undefined;
  let tenant: TestTenant | undefined;
  beforeAll(async () => {
    app = await createTestApp(config, imports, options);
    if (per === 'once') tenant = await createTenant(app);
  });
  if (per === 'each') {
    beforeEach(async () => {
      tenant = await createTenant(context.app);
    });
  }
  afterAll(async () => {
    await app?.close();
  });
  const context: TestAppContext = {
    get app() {
      if (!app) throw new Error('The application is made in beforeAll: read it in a hook or a test');
      return app;
    },
    get tenant() {
      if (!tenant) throw new Error(`No tenant: useTestApp({ tenant: '${per}' }) makes it in a hook, read it in a test`);
      return tenant;
    },
    api: apiClient(
      () => context.app,
      () => context.tenant,
    ),
  };
  return context;
}
