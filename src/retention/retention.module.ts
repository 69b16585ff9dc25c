import { Module } from '@nestjs/common';
import { EventsFeedModule } from '../events/feed/events-feed.module';
import { EventsRetentionStep } from '../events/feed/events-retention.step';
import { IdempotencyKeysRetentionStep } from '../idempotency/idempotency-keys.retention';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { WebhookSecretsRetentionStep } from '../webhooks/webhook-secrets.retention';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { RETENTION_STEPS } from './retention-step';
import { RetentionJob } from './retention.job';
import { RetentionRepository } from './retention.repository';

/** The retention job and its steps: add a step here to expire another kind of data. */
@Module({
  imports: [EventsFeedModule, WebhooksModule, IdempotencyModule],
  providers: [
    RetentionRepository,
    RetentionJob,
    EventsRetentionStep,
    WebhookSecretsRetentionStep,
    {
      provide: RETENTION_STEPS,
      useFactory: (...steps: unknown[]) => steps,
      inject: [EventsRetentionStep, WebhookSecretsRetentionStep, IdempotencyKeysRetentionStep],
    },
  ],
  exports: [RetentionJob],
})
export class RetentionModule {}
