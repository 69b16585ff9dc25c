import type { EntityManager } from 'typeorm';
import { DomainEventName, DomainEvents, PublishedEvent } from '../../src/events/domain-events';

/** An event as a test makes it up: a name the service knows, any payload (not the feature's type). */
export interface MadeUpEvent {
  name: DomainEventName;
  data: object;
  occurredAt?: Date;
}

/**
 * Publishes made-up events as the features publish theirs (DomainEvents.publishMany, in the transaction
 * of `manager`). The feed and webhooks carry a payload as JSON whatever its shape, which is what the
 * tests that use this check; the one type assertion of that lives here.
 */
export function publishMadeUp(
  events: DomainEvents,
  manager: EntityManager,
  organisationId: string,
  ...made: MadeUpEvent[]
): Promise<void> {
  const published = made.map(
    ({ name, data, occurredAt = new Date() }) => ({ name, data, occurredAt }) as PublishedEvent,
  );
  return events.publishMany(manager, organisationId, published);
}
