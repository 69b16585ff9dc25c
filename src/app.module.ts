import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthModule } from './auth/auth.module';
import { loggerParams } from './common/logging';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { createDataSourceOptions } from './database/data-source-options';
import { EmployeesModule } from './employees/employees.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { PositionsModule } from './positions/positions.module';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { RatingsModule } from './ratings/ratings.module';
import { SkillsModule } from './skills/skills.module';

export interface AppModuleOptions {
  config: AppConfig;
  /** Where the database is reached: DATABASE_URL, or the embedded database's loopback URL. */
  databaseUrl: string;
  poolSize: number;
  /** Modules added beside the features; the e2e tests mount probe routes this way. */
  extraImports?: ModuleMetadata['imports'];
}

const FEATURE_MODULES = [HealthModule, EmployeesModule, SkillsModule, RatingsModule, PositionsModule, WebhooksModule];

@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, poolSize, extraImports = [] }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerParams(config.logLevel)),
        TypeOrmModule.forRoot({ ...createDataSourceOptions(databaseUrl, poolSize), migrationsRun: true }),
        EventEmitterModule.forRoot(),
        EventsModule,
        AuthModule,
        RateLimitModule,
        ...FEATURE_MODULES,
        ...extraImports,
      ],
      // Order matters: the rate limit counts requests with bad keys too, before the key guard refuses them.
      providers: [
        { provide: APP_GUARD, useExisting: RateLimitGuard },
        { provide: APP_GUARD, useClass: ApiKeyGuard },
      ],
    };
  }
}
