import { ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { Runtime } from './runtime';

/** Builds the HTTP application on an open runtime (migrations run as the database module starts). */
export async function createApp(
  runtime: Runtime,
  extraImports: ModuleMetadata['imports'] = [],
): Promise<NestExpressApplication> {
  const { config, databaseUrl, poolSize } = runtime;
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, databaseUrl, poolSize, extraImports }),
    { bodyParser: false, bufferLogs: true },
  );
  configureApp(app);
  return app;
}
