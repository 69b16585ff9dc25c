import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { isUuid } from '../database/uuid';
import type { ChangeOrigin } from '../database/write-context';
import type { Changes } from './changes';
import { EVENT_CATALOGUE, eventRule } from './event-catalogue';
import type { NewEvent } from './event-recording';
import { EventsRepository } from './events.repository';

/**
 * The payload (`data`) of each event the service emits, as docs/api-decisions.md maps them. Empty here:
 * each feature declares its own events by declaration merging (`employees/employee.events.ts`, …), so
 * events/ depends on no feature.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the features' declarations
export interface DomainEventMap {}

export type DomainEventName = keyof DomainEventMap;

/** The employee the event names; null when it names none, or a value no employee has as its id (not a UUID). */
function employeeNamedBy(event: PublishedEvent): string | null {
  const named = eventRule(event.name)!.subject(event.data);
  return named !== null && isUuid(named) ? named : null;
}

/**
 * The resource each event of a resource with a history is about (its data's id), and its version after the
 * change (data.version; an event whose data has none, employee.erased, gives it as `resourceVersion`). Stored
 * beside the event, so GET …/history and the fields changed since a version (If-Match, Base-Version) find one
 * resource's events by index. Events not named here are about no such resource.
 */
const RESOURCE_EVENTS: ReadonlySet<string> = new Set([
  'employee.created',
  'employee.updated',
  'employee.deactivated',
  'employee.erased',
  'skill.created',
  'skill.updated',
  'skill.deleted',
  'skill_group.created',
  'skill_group.updated',
  'skill_group.deleted',
]);

/** The resource the event is about and its version after the change, as NewEvent stores them. */
function resourceOf(event: PublishedEvent): Pick<NewEvent, 'resourceId' | 'resourceVersion'> {
  if (!RESOURCE_EVENTS.has(event.name)) return {};
  const { id, version } = event.data as { id?: unknown; version?: unknown };
  if (typeof id !== 'string' || !isUuid(id)) return {};
  const known = event.resourceVersion ?? version;
  return { resourceId: id, resourceVersion: typeof known === 'number' && Number.isInteger(known) ? known : 0 };
}

/** The names webhooks subscribe to. */
export const DOMAIN_EVENT_NAMES = (Object.keys(EVENT_CATALOGUE) as DomainEventName[]).filter(
  (name) => EVENT_CATALOGUE[name].webhooks,
) as readonly DomainEventName[];

/** Every name GET /events lists: the webhooks' five and the feed-only ones. */
export const FEED_EVENT_NAMES = Object.keys(EVENT_CATALOGUE) as readonly DomainEventName[];

/** One event of a batch: what `publish` takes, for each of many changes of one transaction. */
export type PublishedEvent = {
  [K in DomainEventName]: {
    name: K;
    data: DomainEventMap[K];
    occurredAt: Date;
    changes?: Changes;
    /** The version of the resource after the change, when its data does not carry it (employee.erased, *.deleted). */
    resourceVersion?: number;
  };
}[DomainEventName];

/**
 * Records domain events in the event store with the writing transaction's COMMIT (one round trip for both),
 * together with the fan-out a feature registered (EventsRepository.setFanOut: webhooks/ queues their deliveries).
 */
@Injectable()
export class DomainEvents {
  constructor(
    private readonly database: Database,
    private readonly events: EventsRepository,
  ) {}

  /**
   * Publishes with the change's transaction; outside one, the event and its fan-out's writes (the webhook
   * outbox) could commit without the change or the change without them, so it refuses. The transaction's
   * origin (Database.transaction's WriteContext) gives the event its actor, requestId and traceparent; a
   * transaction opened without one refuses too, so no write path can leave them out. `changes`: only for
   * the `*.updated` events.
   */
  async publish<K extends DomainEventName>(
    manager: EntityManager,
    organisationId: string,
    name: K,
    data: DomainEventMap[K],
    occurredAt: Date = new Date(),
    changes?: Changes,
  ): Promise<void> {
    this.record(manager, organisationId, [{ name, occurredAt, data, changes } as PublishedEvent]);
  }

  /** As publish for each event in order, recorded (and fanned out) in one statement. */
  async publishMany(manager: EntityManager, organisationId: string, events: PublishedEvent[]): Promise<void> {
    if (events.length > 0) this.record(manager, organisationId, events);
  }

  /** Records `events` with the COMMIT of the transaction of `manager`, with its origin. */
  private record(manager: EntityManager, organisationId: string, events: PublishedEvent[]) {
    const origin = this.originIn(manager, events[0].name);
    this.events.recordWithCommit(
      organisationId,
      events.map((event): NewEvent => ({
        ...event,
        employeeId: employeeNamedBy(event),
        ...resourceOf(event),
        ...origin,
      })),
      manager,
    );
  }

  /**
   * The origin of the transaction of `manager`. Outside the change's transaction, the event and its fan-out's
   * writes could commit without the change or the change without them, and in one opened without an origin the
   * event would miss its actor: publishing refuses both.
   */
  private originIn(manager: EntityManager, name: string): ChangeOrigin {
    if (!this.database.inTransaction(manager)) throw new Error(`Domain event ${name} published outside a transaction`);
    const origin = this.database.originOf(manager);
    if (!origin) throw new Error(`Domain event ${name} published in a transaction without its origin`);
    return origin;
  }
}
