import { applyDecorators, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DOMAIN_EVENT_NAMES, DomainEvent } from '../events/domain-events';
import { WebhookCommitWatcher } from './webhook-commit-watcher';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** The exact bytes sent and signed: `{"event","timestamp","data"}`. */
export function deliveryBody(event: string, occurredAt: Date, data: unknown): Buffer {
  return Buffer.from(JSON.stringify({ event, timestamp: occurredAt.toISOString(), data }), 'utf8');
}

/** Listens to every domain event; a failure must fail the change, so errors are not suppressed. */
const OnEveryDomainEvent = () =>
  applyDecorators(...DOMAIN_EVENT_NAMES.map((name) => OnEvent(name, { suppressErrors: false })));

/** Writes the outbox rows of a domain event inside the transaction of the change that caused it. */
@Injectable()
export class WebhookOutboxListener {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly commitWatcher: WebhookCommitWatcher,
  ) {}

  @OnEveryDomainEvent()
  async record(event: DomainEvent): Promise<void> {
    const body = deliveryBody(event.name, event.occurredAt, event.data);
    const recorded = await this.deliveries.enqueue(event.manager, event.organisationId, event.name, body, new Date());
    if (recorded > 0) this.commitWatcher.watch(event.manager);
  }
}
