import { Global, Module } from '@nestjs/common';
import { DomainEventListenersCheck } from './domain-event-listeners.check';
import { DomainEvents } from './domain-events';
import { EventsRepository } from './events.repository';
import { EventsRetentionStep } from './events.retention';

/**
 * The listener check in a module of its own, and not global: Nest bootstraps every global module
 * first, EventEmitterModule among them (it subscribes the @OnEvent listeners then), so the check
 * sees them all whatever the order of the imports.
 */
@Module({ providers: [DomainEventListenersCheck] })
class DomainEventListenersCheckModule {}

/** The event store: publishing records each event here, GET /events (feed/) and webhooks read it back. */
@Global()
@Module({
  imports: [DomainEventListenersCheckModule],
  providers: [DomainEvents, EventsRepository, EventsRetentionStep],
  exports: [DomainEvents, EventsRepository],
})
export class EventsModule {}
