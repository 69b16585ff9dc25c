import { Module } from '@nestjs/common';
import { ListCursors } from '../common/cursor';
import { DeliveryNotificationListener } from './delivery-notification.listener';
import { WebhookCommitWatcher } from './webhook-commit-watcher';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookOutboxListener } from './webhook-outbox.listener';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookSender } from './webhook-sender';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
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
  ],
  exports: [WebhookDispatcher, DeliveryNotificationListener, WebhookEndpointsRepository],
})
export class WebhooksModule {}
