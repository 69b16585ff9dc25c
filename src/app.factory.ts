import { ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { bootstrapLogger } from './common/logging';
import { RetentionJob } from './retention/retention.job';
import { Runtime } from './runtime';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';

export interface CreateAppOptions {
  /** Send webhook deliveries and prune expired data from this process: the server does; the CLI and most e2e apps do not. */
  dispatch?: boolean;
}

/** Builds the HTTP application on an open (and migrated) runtime. */
export async function createApp(
  runtime: Pick<Runtime, 'config' | 'databaseUrl' | 'poolSize'>,
  extraImports: ModuleMetadata['imports'] = [],
  options: CreateAppOptions = {},
): Promise<NestExpressApplication> {
  const { config, databaseUrl, poolSize } = runtime;
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, databaseUrl, poolSize, extraImports }),
    { bodyParser: false, bufferLogs: true, logger: bootstrapLogger(config) },
  );
  configureApp(app);
  if (options.dispatch) {
    app.get(WebhookDispatcher).start();
    app.get(RetentionJob).start();
  }
  return app;
}
