import { INestApplication, RequestMethod } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { EnvelopeInterceptor } from './common/envelope.interceptor';
import { configureHttpServer } from './common/http-server';
import { createValidationPipe } from './common/validation';
import { APP_CONFIG, AppConfig } from './config/config';
import { Readiness } from './health/readiness';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { API_PREFIX, setupOpenApi } from './openapi';

/** Everything around the routes, shared by the server and the e2e tests so both run the same pipeline. */
export function configureApp(app: NestExpressApplication): INestApplication {
  app.useLogger(app.get(Logger));
  app.set('etag', false);
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  // A stopping instance asks kept-alive clients to reconnect, so they move to another instance.
  const readiness = app.get(Readiness);
  app.use((_request: Request, response: Response, next: NextFunction) => {
    if (readiness.isStopping) response.setHeader('Connection', 'close');
    next();
  });
  configureHttpServer(app.getHttpServer(), app.get<AppConfig>(APP_CONFIG).httpKeepAliveTimeoutMs);
  // Bodies are read by RequestInputGuard, after the rate limit and the key.
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: '/', method: RequestMethod.GET },
      { path: API_PREFIX, method: RequestMethod.GET },
      { path: 'health/live', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
    ],
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  // Idempotency outermost: it keeps and replays the whole envelope.
  app.useGlobalInterceptors(app.get(IdempotencyInterceptor), new EnvelopeInterceptor());
  setupOpenApi(app);
  return app;
}
