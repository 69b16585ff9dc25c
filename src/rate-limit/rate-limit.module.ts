import { Logger, Module } from '@nestjs/common';
import { ThrottlerModule, ThrottlerModuleOptions } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../config/config';
import { FixedWindowStorage } from './fixed-window.storage';
import { RateLimitGuard } from './rate-limit.guard';

const WINDOW_MS = 60_000;

function rateLimitOptions(config: AppConfig): ThrottlerModuleOptions {
  if (config.databaseUrl && !config.redisUrl) {
    new Logger('RateLimit').warn(
      'REDIS_URL is not set: each instance counts the rate limit on its own, so N instances allow N times the limit',
    );
  }
  return {
    throttlers: [{ ttl: WINDOW_MS, limit: config.rateLimitPerMinute }],
    // One counter per key across every route (throttler's default keeps one per route).
    generateKey: (_context, tracker) => tracker,
    storage: new FixedWindowStorage(config.redisUrl),
  };
}

@Module({
  imports: [ThrottlerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: rateLimitOptions })],
  providers: [RateLimitGuard],
  exports: [RateLimitGuard],
})
export class RateLimitModule {}
