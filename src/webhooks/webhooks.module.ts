import { Module, OnModuleInit } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { EventsRepository } from '../events/events.repository';
import { ListCursors } from '../pagination/cursor';
import { VersionsModule } from '../versions/versions.module';
import { DeliveryNotificationListener } from './delivery-notification.listener';
import { WebhookCommitWatcher } from './webhook-commit-watcher';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { webhookFanOut } from './webhook-fan-out';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookSecretsResealingStep } from './webhook-secrets.resealing';
import { WebhookSecretsRetentionStep } from './webhook-secrets.retention';
import { WebhookSender } from './webhook-sender';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * Deliveries of the events the event store (EventsModule) records, and the webhook endpoints. At start-up it
 * gives the event store its fan-out: every recording also writes the deliveries, announced once committed.
 */
@Module({
  imports: [EventsModule, VersionsModule],
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
    DeliveryNotificationListener,
    WebhookSecretsRetentionStep,
    WebhookSecretsResealingStep,
  ],
  exports: [
    WebhooksService,
    WebhookDispatcher,
    DeliveryNotificationListener,
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
  ],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly events: EventsRepository,
    private readonly commitWatcher: WebhookCommitWatcher,
  ) {}

  onModuleInit(): void {
    this.events.setFanOut(webhookFanOut((manager) => this.commitWatcher.watch(manager)));
  }
}
