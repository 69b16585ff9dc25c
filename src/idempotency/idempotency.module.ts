import { Global, Module } from '@nestjs/common';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotencyKeysRetentionStep } from './idempotency-keys.retention';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { RequestFingerprints } from './request-fingerprint';

/** Global: each feature module that binds the interceptor with @Idempotent() makes its own, from these. */
@Global()
@Module({
  providers: [IdempotencyKeysRepository, IdempotencyInterceptor, IdempotencyKeysRetentionStep, RequestFingerprints],
  exports: [IdempotencyInterceptor, IdempotencyKeysRepository, RequestFingerprints],
})
export class IdempotencyModule {}
