import { Global, Module } from '@nestjs/common';
import { DomainEvents } from './domain-events';
import { EventsRepository } from './events.repository';
import { EventsRetentionStep } from './events.retention';

/**
 * The event store: publishing records each event here, with the fan-out webhooks/ registers; GET /events (feed/)
 * and webhooks read it back.
 */
@Global()
@Module({
  providers: [DomainEvents, EventsRepository, EventsRetentionStep],
  exports: [DomainEvents, EventsRepository],
})
export class EventsModule {}
