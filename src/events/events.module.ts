import { Global, Module } from '@nestjs/common';
import { DomainEventListenersCheck } from './domain-event-listeners.check';
import { DomainEvents } from './domain-events';

/**
 * The listener check in a module of its own, and not global: Nest bootstraps every global module
 * first, EventEmitterModule among them (it subscribes the @OnEvent listeners then), so the check
 * sees them all whatever the order of the imports.
 */
@Module({ providers: [DomainEventListenersCheck] })
class DomainEventListenersCheckModule {}

@Global()
@Module({ imports: [DomainEventListenersCheckModule], providers: [DomainEvents], exports: [DomainEvents] })
export class EventsModule {}
