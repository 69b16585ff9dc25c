import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '../../database/uuid';
import { ConsoleRequest } from '../http/console-request';
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

/** Who did something: a console user's email, or "cli"; and from which address, when a request says. */
export interface Actor {
  who: string;
  clientAddress?: string | null;
}

/** The signed-in person of a console request as the actor. */
export function actorOf(request: ConsoleRequest): Actor {
  if (!request.viewer) throw new Error('actorOf needs a signed-in console request');
  return { who: request.viewer.email, clientAddress: request.clientAddress ?? null };
}

export interface NewActivity {
  actor: string;
  action: ActivityAction;
  /** What it was done to, as a person reads it: an email, a key's name and id, a URL. */
  target?: string | null;
  clientAddress?: string | null;
}

/** The organisation's activity log: every console action and the command line's key changes, kept 400 days. */
@Injectable()
export class ActivityService {
  constructor(private readonly activity: ActivityRepository) {}

  async record(organisationId: string, activity: NewActivity, manager?: EntityManager): Promise<void> {
    await this.activity.insert(
      organisationId,
      {
        id: newId(),
        at: new Date(),
        actor: activity.actor,
        action: activity.action,
        target: activity.target ?? null,
        clientAddress: activity.clientAddress ?? null,
      },
      manager,
    );
  }

  /** Records what `actor` did in the organisation. */
  async recordAs(
    organisationId: string,
    actor: Actor,
    action: ActivityAction,
    target?: string | null,
    manager?: EntityManager,
  ): Promise<void> {
    await this.record(
      organisationId,
      { actor: actor.who, action, target, clientAddress: actor.clientAddress },
      manager,
    );
  }

  /** Records what the signed-in person of a console request did, from their address: what a page calls. */
  async recordBy(
    request: ConsoleRequest,
    action: ActivityAction,
    target?: string | null,
    manager?: EntityManager,
  ): Promise<void> {
    const actor = actorOf(request);
    await this.recordAs(request.viewer!.organisationId, actor, action, target, manager);
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
