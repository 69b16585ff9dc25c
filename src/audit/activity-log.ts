import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '../database/uuid';
import type { Actor } from '../database/write-context';
import { ActivityAction } from './activity-action';
import { ActivityEntry, ActivityRepository } from './activity.repository';

/** Entries on one page of the Activity page. */
export const ACTIVITY_PAGE_SIZE = 50;

export interface ActivityPage {
  entries: ActivityEntry[];
  /** The id to page on from, when there are entries on that side. */
  olderThan: string | null;
  newerThan: string | null;
}

/**
 * The organisation's activity log (kept 400 days): what people do in the console and what the command line does
 * to keys. Every service that makes such a change records it here, in the change's own transaction, so the two
 * commit together. Changes an API key or the retention job makes are the feed's to tell, not this log's: for
 * them `record` writes nothing, so a service records every change the same way whoever makes it.
 */
@Injectable()
export class ActivityLog {
  constructor(private readonly activity: ActivityRepository) {}

  async record(
    organisationId: string,
    actor: Actor,
    action: ActivityAction,
    target: string | null,
    manager?: EntityManager,
  ): Promise<void> {
    const who = nameOf(actor);
    if (who === null) return;
    const clientAddress = actor.type === 'console' || actor.type === 'visitor' ? actor.clientAddress : null;
    await this.activity.insert(
      organisationId,
      { id: newId(), at: new Date(), actor: who, action, target, clientAddress },
      manager,
    );
  }

  /** A page of the log, newest first: the latest, or the page older or newer than an entry's id. */
  async page(organisationId: string, from: { before?: string; after?: string }): Promise<ActivityPage> {
    const rows = await this.activity.window(organisationId, { ...from, limit: ACTIVITY_PAGE_SIZE });
    const more = rows.length > ACTIVITY_PAGE_SIZE;
    // Paging newer fetched from the oldest end: the extra row is then the newest.
    const entries = from.after !== undefined ? rows.slice(more ? 1 : 0) : rows.slice(0, ACTIVITY_PAGE_SIZE);
    const first = entries[0]?.id ?? null;
    const last = entries[entries.length - 1]?.id ?? null;
    const hasOlder = from.after !== undefined ? entries.length > 0 : more;
    const hasNewer = from.after !== undefined ? more : from.before !== undefined;
    return { entries, olderThan: hasOlder ? last : null, newerThan: hasNewer ? first : null };
  }
}

/** Who the log names: a person's email, the email a failed sign-in claimed, "cli"; null for what it leaves out. */
function nameOf(actor: Actor): string | null {
  switch (actor.type) {
    case 'console':
      return actor.email;
    case 'visitor':
      return actor.claimed;
    case 'cli':
      return 'cli';
    case 'first_start':
      return 'first start';
    case 'api_key':
    case 'retention':
      return null;
  }
}
