import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { isUuid } from '../database/uuid';
import type { ChangeOrigin } from '../database/write-context';
import type { Changes } from './changes';
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

/**
 * Every event name once, with whether webhooks carry it (true: the five of the spec) or only the feed
 * (false): a name a feature declares but this list misses does not compile.
 */
const EVERY_EVENT_NAME: Record<DomainEventName, boolean> = {
  'employee.created': true,
  'employee.updated': true,
  'employee.deactivated': true,
  'skill.rated': true,
  'position.updated': true,
  'skill.created': false,
  'skill.updated': false,
  'skill.deleted': false,
  'employee_skill.deleted': false,
  'employee.erased': false,
  'skill_group.created': false,
  'skill_group.updated': false,
  'skill_group.deleted': false,
};

/**
 * The employee each event names (null: none), stored beside it: erasure redacts, and the personal-data export
 * lists, the events found by it (decisions.md, "Data protection").
 */
const EMPLOYEE_NAMED: { [K in DomainEventName]: (data: DomainEventMap[K]) => string | null } = {
  'employee.created': (employee) => employee.id,
  'employee.updated': (employee) => employee.id,
  'employee.deactivated': (employee) => employee.id,
  'employee.erased': (erased) => erased.id,
  'skill.rated': (rated) => rated.employeeId,
  'employee_skill.deleted': (deleted) => deleted.employeeId,
  'position.updated': (position) => position.replacesPerson?.id ?? null,
  'skill.created': () => null,
  'skill.updated': () => null,
  'skill.deleted': () => null,
  'skill_group.created': () => null,
  'skill_group.updated': () => null,
  'skill_group.deleted': () => null,
};

/** The employee the event names; null when it names none, or a value no employee has as its id (not a UUID). */
function employeeNamedBy(event: PublishedEvent): string | null {
  // The map's entry for the event's own name takes its data; TypeScript does not follow that through the union.
  const named = (EMPLOYEE_NAMED[event.name] as (data: PublishedEvent['data']) => string | null)(event.data);
  return named !== null && isUuid(named) ? named : null;
}

/** The names webhooks subscribe to. */
export const DOMAIN_EVENT_NAMES = (Object.keys(EVERY_EVENT_NAME) as DomainEventName[]).filter(
  (name) => EVERY_EVENT_NAME[name],
) as readonly DomainEventName[];

/** Every name GET /events lists: the webhooks' five and the feed-only ones. */
export const FEED_EVENT_NAMES = Object.keys(EVERY_EVENT_NAME) as readonly DomainEventName[];

/** One event of a batch: what `publish` takes, for each of many changes of one transaction. */
export type PublishedEvent = {
  [K in DomainEventName]: { name: K; data: DomainEventMap[K]; occurredAt: Date; changes?: Changes };
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
      events.map((event): NewEvent => ({ ...event, employeeId: employeeNamedBy(event), ...origin })),
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
