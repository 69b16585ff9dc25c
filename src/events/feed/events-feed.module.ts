import { Module } from '@nestjs/common';
import { EventsModule } from '../events.module';
import { EventsFeedService } from './events-feed.service';
import { EventsController } from './events.controller';

/** GET /events: the event store's events, read back in commit-safe order (and for the console's Events page). */
@Module({
  imports: [EventsModule],
  controllers: [EventsController],
  providers: [EventsFeedService],
  exports: [EventsFeedService],
})
export class EventsFeedModule {}
