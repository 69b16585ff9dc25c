import { Module } from '@nestjs/common';
import { EventsModule } from '../events.module';
import { EventsFeedService } from './events-feed.service';
import { EventsController } from './events.controller';

/** GET /events: the event store's events, read back in commit-safe order. */
@Module({
  imports: [EventsModule],
  controllers: [EventsController],
  providers: [EventsFeedService],
})
export class EventsFeedModule {}
