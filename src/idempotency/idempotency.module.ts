import { Module } from '@nestjs/common';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyKeysRetentionStep } from './idempotency-keys.retention';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { RequestFingerprints } from './request-fingerprint';

@Module({
  providers: [IdempotencyKeysRepository, IdempotencyInterceptor, IdempotencyKeysRetentionStep, RequestFingerprints],
  exports: [IdempotencyInterceptor],
})
export class IdempotencyModule {}
