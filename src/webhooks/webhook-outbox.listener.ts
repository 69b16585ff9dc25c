import { applyDecorators, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { newId } from '../common/uuid';
import { DOMAIN_EVENT_BATCH, DOMAIN_EVENT_NAMES, DomainEvent, DomainEventBatch } from '../events/domain-events';
import { WebhookCommitWatcher } from './webhook-commit-watcher';
import { RecordedEvent, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** An event to record: a new id, and the exact bytes sent and signed, `{"event","timestamp","data"}`. */
export function recordedEvent(name: string, occurredAt: Date, data: unknown): RecordedEvent {
  const body = Buffer.from(JSON.stringify({ event: name, timestamp: occurredAt.toISOString(), data }), 'utf8');
  return { id: newId(), name, occurredAt, body, createdAt: new Date() };
}

/** Listens to every domain event; a failure must fail the change, so errors are not suppressed. */
const OnEveryDomainEvent = () =>
  applyDecorators(...DOMAIN_EVENT_NAMES.map((name) => OnEvent(name, { suppressErrors: false })));

/**
 * Records every domain event (the events feed keeps them all) and its deliveries to the subscribed endpoints,
 * inside the transaction of the change that caused it.
 */
@Injectable()
export class WebhookOutboxListener {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly commitWatcher: WebhookCommitWatcher,
  ) {}

  @OnEveryDomainEvent()
  async record(event: DomainEvent): Promise<void> {
    const recorded = recordedEvent(event.name, event.occurredAt, event.data);
    const deliveries = await this.deliveries.recordEvent(event.organisationId, recorded, event.manager);
    if (deliveries > 0) this.commitWatcher.watch(event.manager);
  }

  /** The events of a batch, recorded in item order with their deliveries in one statement. */
  @OnEvent(DOMAIN_EVENT_BATCH, { suppressErrors: false })
  async recordBatch(batch: DomainEventBatch): Promise<void> {
    const recorded = batch.events.map((event) => recordedEvent(event.name, event.occurredAt, event.data));
    const deliveries = await this.deliveries.recordEvents(batch.organisationId, recorded, batch.manager);
    if (deliveries > 0) this.commitWatcher.watch(batch.manager);
  }
}
