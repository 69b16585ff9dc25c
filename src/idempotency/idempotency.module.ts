import { Module } from '@nestjs/common';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyKeysRetentionStep } from './idempotency-keys.retention';
import { IdempotencyInterceptor } from './idempotency.interceptor';

@Module({
  providers: [IdempotencyKeysRepository, IdempotencyInterceptor, IdempotencyKeysRetentionStep],
  exports: [IdempotencyInterceptor],
})
export class IdempotencyModule {}
