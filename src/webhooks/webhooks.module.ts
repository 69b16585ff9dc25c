import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { ListCursors } from '../pagination/cursor';
import { DeliveryNotificationListener } from './delivery-notification.listener';
import { WebhookCommitWatcher } from './webhook-commit-watcher';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookOutboxListener } from './webhook-outbox.listener';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookSecretsRetentionStep } from './webhook-secrets.retention';
import { WebhookSender } from './webhook-sender';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** Deliveries of the events the event store (EventsModule) records, and the webhook endpoints. */
@Module({
  imports: [EventsModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    ListCursors,
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookSecrets,
    WebhookSender,
    WebhookDispatcher,
    WebhookCommitWatcher,
    WebhookOutboxListener,
    DeliveryNotificationListener,
    WebhookSecretsRetentionStep,
  ],
  exports: [WebhookDispatcher, DeliveryNotificationListener, WebhookEndpointsRepository],
})
export class WebhooksModule {}
