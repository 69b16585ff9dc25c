import { applyDecorators, Injectable, OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DOMAIN_EVENT_BATCH, DOMAIN_EVENT_NAMES, DomainEvent, DomainEventBatch } from '../events/domain-events';
import { EventsRepository } from '../events/events.repository';
import { WebhookCommitWatcher } from './webhook-commit-watcher';
import { DELIVERIES_OF_RECORDED_EVENTS } from './webhook-deliveries.repository';

/** Listens to every domain event; a failure must fail the change, so errors are not suppressed. */
const OnEveryDomainEvent = () =>
  applyDecorators(...DOMAIN_EVENT_NAMES.map((name) => OnEvent(name, { suppressErrors: false })));

/**
 * Queues the deliveries of every recorded domain event to the subscribed endpoints, inside the transaction of
 * the change that caused it: the fan-out joins the statement that records the events, which travels with the
 * change's COMMIT; once the change has committed with deliveries, the commit watcher announces them.
 */
@Injectable()
export class WebhookOutboxListener implements OnModuleInit {
  constructor(
    private readonly events: EventsRepository,
    private readonly commitWatcher: WebhookCommitWatcher,
  ) {}

  onModuleInit(): void {
    this.events.setFanOut(DELIVERIES_OF_RECORDED_EVENTS);
  }

  @OnEveryDomainEvent()
  watch(event: DomainEvent): void {
    this.watchDeliveries(event);
  }

  @OnEvent(DOMAIN_EVENT_BATCH, { suppressErrors: false })
  watchBatch(batch: DomainEventBatch): void {
    this.watchDeliveries(batch);
  }

  /** Through the commit watcher, so a transaction of many events is announced once. */
  private watchDeliveries({ manager, whenCommitted }: DomainEvent | DomainEventBatch): void {
    whenCommitted((fannedOut) => {
      if (fannedOut > 0) this.commitWatcher.watch(manager);
    });
  }
}
