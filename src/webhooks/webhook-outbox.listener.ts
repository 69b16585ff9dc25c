import { applyDecorators, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DOMAIN_EVENT_BATCH, DOMAIN_EVENT_NAMES, DomainEvent, DomainEventBatch } from '../events/domain-events';
import { WebhookCommitWatcher } from './webhook-commit-watcher';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** Listens to every domain event; a failure must fail the change, so errors are not suppressed. */
const OnEveryDomainEvent = () =>
  applyDecorators(...DOMAIN_EVENT_NAMES.map((name) => OnEvent(name, { suppressErrors: false })));

/**
 * Queues the deliveries of every recorded domain event to the subscribed endpoints, inside the transaction of
 * the change that caused it (DomainEvents has recorded the event itself).
 */
@Injectable()
export class WebhookOutboxListener {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly commitWatcher: WebhookCommitWatcher,
  ) {}

  @OnEveryDomainEvent()
  async fanOut(event: DomainEvent): Promise<void> {
    const deliveries = await this.deliveries.fanOut(event.organisationId, event, event.manager);
    if (deliveries > 0) this.commitWatcher.watch(event.manager);
  }

  /** The deliveries of a batch's recorded events, in item order, in one statement. */
  @OnEvent(DOMAIN_EVENT_BATCH, { suppressErrors: false })
  async fanOutBatch(batch: DomainEventBatch): Promise<void> {
    const deliveries = await this.deliveries.fanOutMany(batch.organisationId, batch.events, batch.manager);
    if (deliveries > 0) this.commitWatcher.watch(batch.manager);
  }
}
