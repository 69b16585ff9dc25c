import { ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { Runtime } from './runtime';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';

export interface CreateAppOptions {
  /** Send webhook deliveries from this process: the server does; the CLI and most e2e apps do not. */
  dispatch?: boolean;
}

/** Builds the HTTP application on an open runtime (migrations run as the database module starts). */
export async function createApp(
  runtime: Runtime,
  extraImports: ModuleMetadata['imports'] = [],
  options: CreateAppOptions = {},
): Promise<NestExpressApplication> {
  const { config, databaseUrl, poolSize } = runtime;
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, databaseUrl, poolSize, extraImports }),
    { bodyParser: false, bufferLogs: true },
  );
  configureApp(app);
  if (options.dispatch) app.get(WebhookDispatcher).start();
  return app;
}
