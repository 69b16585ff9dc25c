import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../errors/errors';
import { Page } from '../../pagination/pagination';
import { EventsRepository } from '../events.repository';
import { EventResponse, toEventResponse } from './dto/event.response';
import { ListEventsQuery } from './dto/list-events.query';

@Injectable()
export class EventsFeedService {
  constructor(private readonly events: EventsRepository) {}

  /** One page of the organisation's events, oldest first, after the event named by `after`. */
  async list(organisationId: string, query: ListEventsQuery): Promise<Page<EventResponse>> {
    let after;
    if (query.after !== undefined) {
      after = await this.events.findCursor(organisationId, query.after);
      if (!after) throw ValidationError.forField('after', 'after must be the id of a kept event of the organisation');
    }
    // One more than asked, to tell whether more are ready.
    const rows = await this.events.list(organisationId, { after, event: query.event, limit: query.limit + 1 });
    const items = rows.slice(0, query.limit).map((row) => toEventResponse(row.id, row.body));
    return new Page(items, {
      limit: query.limit,
      hasMore: rows.length > query.limit,
      nextAfter: items.at(-1)?.id ?? null,
    });
  }
}
