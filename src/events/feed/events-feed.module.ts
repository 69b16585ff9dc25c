import { Module } from '@nestjs/common';
import { EventsFeedService } from './events-feed.service';
import { EventsController } from './events.controller';
import { EventsRepository } from './events.repository';

/** GET /events: the events the webhooks outbox records, read back in commit-safe order. */
@Module({
  controllers: [EventsController],
  providers: [EventsRepository, EventsFeedService],
  exports: [EventsRepository],
})
export class EventsFeedModule {}
