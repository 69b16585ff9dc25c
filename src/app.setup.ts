import { INestApplication, RequestMethod } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { APP_CONFIG, AppConfig } from './config/config';
import { useReadReplicas } from './database/read-replicas';
import { Readiness } from './health/readiness';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { configureHttpServer } from './http/http-server';
import { createPinoLogger } from './http/logging';
import { requestLog } from './http/request-log';
import { Metrics } from './metrics/metrics';
import { API_PREFIX, setupOpenApi } from './openapi';
import { createValidationPipe } from './validation/validation';

/** Everything around the routes, shared by the server and the e2e tests so both run the same pipeline. */
export function configureApp(app: NestExpressApplication): INestApplication {
  app.useLogger(app.get(Logger));
  const config = app.get<AppConfig>(APP_CONFIG);
  // No ETag: it would hash every body, and no route answers conditional requests.
  app.set('etag', false);
  app.disable('x-powered-by');
  const readiness = app.get(Readiness);
  const metrics = config.metricsPort === 0 ? undefined : app.get(Metrics);
  app.use(requestLog(createPinoLogger(config), () => readiness.isStopping, metrics));
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false, xPoweredBy: false }));
  configureHttpServer(app.getHttpServer(), config.httpKeepAliveTimeoutMs);
  // Bodies are read by RequestInputGuard, after the rate limit and the key.
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [
      { path: '/', method: RequestMethod.GET },
      { path: API_PREFIX, method: RequestMethod.GET },
      { path: 'health/live', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      // The console's pages (src/console), outside the API.
      { path: 'console', method: RequestMethod.ALL },
      { path: 'console/*path', method: RequestMethod.ALL },
    ],
  });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  // No global interceptor: the adapter (http/envelope.ts) wraps results, only POST routes intercept
  // (@Idempotent), and read routing (only with replicas) is middleware.
  useReadReplicas(app, API_PREFIX);
  setupOpenApi(app);
  return app;
}
