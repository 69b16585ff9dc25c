import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { RateLimitGuard } from './rate-limit.guard';
import { MemoryRateLimitStore, RateLimitStore, RedisRateLimitStore } from './rate-limit.store';
import { RATE_LIMIT_STORE } from './rate-limit.tokens';

@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): RateLimitStore =>
        config.redisUrl ? new RedisRateLimitStore(config.redisUrl) : new MemoryRateLimitStore(),
    },
    RateLimitGuard,
  ],
  exports: [RateLimitGuard],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
