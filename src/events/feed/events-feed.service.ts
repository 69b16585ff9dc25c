import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../errors/errors';
import { Page } from '../../pagination/pagination';
import { FEED_EVENT_NAMES } from '../domain-events';
import { EventsRepository } from '../events.repository';
import { EventResponse, toEventResponse } from './dto/event.response';
import { ListEventsQuery } from './dto/list-events.query';

/** A page of the feed newest first (the console's Events page), with where the pages on either side start. */
export interface NewestFirstPage {
  events: EventResponse[];
  /** The id to page on from, when there are events on that side. */
  olderThan: string | null;
  newerThan: string | null;
}

export interface NewestFirstQuery {
  /** The page older than this event, or (`after`) newer; neither, or an event no longer kept: the newest. */
  before?: string;
  after?: string;
  event?: string;
  limit: number;
}

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

  /**
   * A page of the organisation's events newest first, in the feed's order and among the events it lists; the
   * event filter takes the names GET /events takes.
   */
  async newestFirst(organisationId: string, query: NewestFirstQuery): Promise<NewestFirstPage> {
    if (query.event !== undefined && !(FEED_EVENT_NAMES as readonly string[]).includes(query.event)) {
      throw ValidationError.forField('event', `event must be one of ${FEED_EVENT_NAMES.join(', ')}`);
    }
    const newer = query.after !== undefined;
    const id = query.after ?? query.before;
    const from = id === undefined ? null : await this.events.findCursor(organisationId, id);
    const rows = await this.events.listNewestFirst(organisationId, {
      from: from ?? undefined,
      newer: newer && from !== null,
      event: query.event,
      // One more than a page tells whether another follows.
      limit: query.limit + 1,
    });
    const more = rows.length > query.limit;
    const paging = newer && from !== null;
    // Paging newer read from the oldest end: the extra row is then the newest.
    const kept = paging ? rows.slice(more ? 1 : 0) : rows.slice(0, query.limit);
    const events = kept.map((row) => toEventResponse(row.id, row.body));
    const hasOlder = paging ? events.length > 0 : more;
    const hasNewer = paging ? more : from !== null;
    return {
      events,
      olderThan: hasOlder ? (events.at(-1)?.id ?? null) : null,
      newerThan: hasNewer ? (events[0]?.id ?? null) : null,
    };
  }
}
