import { ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { AppConfig } from './config/config';
import { EnvelopeExpressAdapter } from './http/envelope';
import { bootstrapLogger } from './http/logging';
import { RetentionJob } from './retention/retention.job';
import { Runtime } from './runtime';
import { DeliveryNotificationListener } from './webhooks/delivery-notification.listener';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';

export interface CreateAppOptions {
  /**
   * This process may send webhook deliveries and prune expired data, as DISPATCH_MODE says: the server (API
   * or worker) may; the CLI and most e2e apps never do.
   */
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
    new EnvelopeExpressAdapter(),
    { bodyParser: false, bufferLogs: true, logger: bootstrapLogger(config) },
  );
  configureApp(app);
  if (options.dispatch) startDispatching(app, config);
  return app;
}

/** DISPATCH_MODE=off leaves both to the workers, which API instances wake with a NOTIFY after each commit. */
function startDispatching(app: NestExpressApplication, config: AppConfig): void {
  if (config.dispatchMode === 'off') return;
  app.get(WebhookDispatcher).start();
  app.get(RetentionJob).start();
  if (config.dispatchMode === 'worker') app.get(DeliveryNotificationListener).start();
}
