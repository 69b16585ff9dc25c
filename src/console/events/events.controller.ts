import { Get, Query } from '@nestjs/common';
import { isUuid } from '../../database/uuid';
import { EventsFeedService } from '../../events/feed/events-feed.service';
import { ConsoleController } from '../http/console-controller.decorator';
import { ConsolePage, Page } from '../http/console-request';
import { Html } from '../http/html';
import { eventsPage } from './events.page';

/** Events on one page of the Events page. */
export const EVENTS_PAGE_SIZE = 50;

/**
 * The Events page: the organisation's feed through the feed's service (the same events, the same order, the
 * same names to filter by), newest first, 50 a page, "Older" and "Newer".
 */
@ConsoleController('events')
export class EventsConsoleController {
  constructor(private readonly feed: EventsFeedService) {}

  @Get()
  async list(
    @Page() { organisationId, viewer }: ConsolePage,
    @Query('event') event: unknown,
    @Query('before') before: unknown,
    @Query('after') after: unknown,
  ): Promise<Html> {
    // "every event" sends an empty name; an id that is not one pages from the newest.
    const eventType = typeof event === 'string' && event !== '' ? event : undefined;
    const page = await this.feed.newestFirst(organisationId, {
      event: eventType,
      after: isUuid(after) ? after.toLowerCase() : undefined,
      before: isUuid(before) ? before.toLowerCase() : undefined,
      limit: EVENTS_PAGE_SIZE,
    });
    return eventsPage(viewer, page, eventType);
  }
}
