import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { AuditModule } from './audit/audit.module';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { createDataSourceOptions } from './database/data-source-options';
import { DatabaseModule } from './database/database.module';
import { EmployeesModule } from './employees/employees.module';
import { ENTITIES } from './entities';
import { EventsModule } from './events/events.module';
import { EventsFeedModule } from './events/feed/events-feed.module';
import { HealthModule } from './health/health.module';
import { loggerParams } from './http/logging';
import { RequestInputGuard } from './http/request-input.guard';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { MetricsModule } from './metrics/metrics.module';
import { PositionsModule } from './positions/positions.module';
import { PrivacyModule } from './privacy/privacy.module';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { RatingsModule } from './ratings/ratings.module';
import { RetentionModule } from './retention/retention.module';
import { RootModule } from './root/root.module';
import { SkillsModule } from './skills/skills.module';
import { WebhooksModule } from './webhooks/webhooks.module';

export interface AppModuleOptions {
  config: AppConfig;
  /** Where the database is reached: DATABASE_URL, or the embedded database's loopback URL. */
  databaseUrl: string;
  poolSize: number;
  /** Modules added beside the features; the e2e tests mount probe routes this way. */
  extraImports?: ModuleMetadata['imports'];
}

const FEATURE_MODULES = [
  HealthModule,
  EmployeesModule,
  SkillsModule,
  RatingsModule,
  PositionsModule,
  WebhooksModule,
  EventsFeedModule,
  PrivacyModule,
  RetentionModule,
];

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, poolSize, extraImports = [] }: AppModuleOptions): DynamicModule {
    const timeouts = { connectMs: config.databaseTimeoutMs, statementMs: config.databaseStatementTimeoutMs };
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerParams(config)),
        TypeOrmModule.forRoot({
          ...createDataSourceOptions(databaseUrl, poolSize, timeouts),
          entities: ENTITIES,
        }),
        DatabaseModule.forRoot({
          // A worker serves no GET: it never reads on a replica, nor checks them.
          urls: config.dispatchMode === 'worker' ? [] : config.databaseReplicaUrls,
          maxLagMs: config.databaseReplicaMaxLagMs,
          poolSize,
          timeouts,
        }),
        MetricsModule,
        EventEmitterModule.forRoot(),
        EventsModule,
        AuditModule,
        AuthModule,
        RateLimitModule,
        IdempotencyModule,
        ...FEATURE_MODULES,
        // Its pages bind their own guard and error pages; the API's requests never meet them.
        ConsoleModule.register({ pages: config.consoleEnabled }),
        ...extraImports,
        RootModule,
      ],
      // The order of checks (decisions.md): the rate limit, which counts requests with bad keys too, then the
      // key and its scope, then the body; only then the ValidationPipe.
      providers: [
        { provide: APP_GUARD, useExisting: RateLimitGuard },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: RequestInputGuard },
      ],
    };
  }
}
