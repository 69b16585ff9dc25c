import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import type { ChangeOrigin } from '../database/write-context';
import type { Changes } from './changes';
import { EventsRepository, NewEvent, RecordedEvent } from './events.repository';

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
};

/** The names webhooks subscribe to; start-up fails while one of them has no listener. */
export const DOMAIN_EVENT_NAMES = (Object.keys(EVERY_EVENT_NAME) as DomainEventName[]).filter(
  (name) => EVERY_EVENT_NAME[name],
) as readonly DomainEventName[];

/** Every name GET /events lists: the webhooks' five and the feed-only ones. */
export const FEED_EVENT_NAMES = Object.keys(EVERY_EVENT_NAME) as readonly DomainEventName[];

export interface DomainEvent<K extends DomainEventName = DomainEventName> {
  /** The id of the recorded event: the row in `events`, and the webhook-id of its deliveries. */
  id: string;
  name: K;
  organisationId: string;
  occurredAt: Date;
  data: DomainEventMap[K];
  /** When the event was recorded. */
  recordedAt: Date;
  /** The transaction of the change: listeners write with it, so they commit or roll back with the change. */
  manager: EntityManager;
  /** Runs `callback` once the change commits, with how many rows the fan-out wrote with the event (see FanOutCount). */
  whenCommitted: FanOutCount;
}

/**
 * The event row and its fan-out (EventFanOut: webhooks' deliveries) go to the database with the change's
 * COMMIT, so how many rows the fan-out wrote is known only once the change has committed: a listener asks to
 * be told then. Never called when the change rolls back.
 */
export type FanOutCount = (callback: (fannedOut: number) => void) => void;

/** One event of a batch: what `publish` takes, for each of many changes of one transaction. */
export type PublishedEvent = {
  [K in DomainEventName]: { name: K; data: DomainEventMap[K]; occurredAt: Date; changes?: Changes };
}[DomainEventName];

/**
 * The emitter event of publishMany: the events of many changes (a bulk request) at once, so a listener can
 * record them in a few statements rather than one per event. Each event is one publish would have emitted.
 */
export const DOMAIN_EVENT_BATCH = 'domain-events.batch';

export interface DomainEventBatch {
  organisationId: string;
  /** In the order the changes were made, each with the id and time the event store recorded it under. */
  events: Array<PublishedEvent & { id: string; recordedAt: Date }>;
  manager: EntityManager;
  /** Runs `callback` once the change commits, with how many rows the fan-out wrote with all of them. */
  whenCommitted: FanOutCount;
}

/**
 * Records domain events in the event store with the writing transaction's COMMIT (one round trip for both), and
 * emits them to the listeners meanwhile.
 */
@Injectable()
export class DomainEvents {
  constructor(
    private readonly emitter: EventEmitter2,
    private readonly database: Database,
    private readonly events: EventsRepository,
  ) {}

  /**
   * Publishes with the change's transaction; outside one, the event and the listeners' writes (the webhook
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
    const { recorded, whenCommitted } = this.record(manager, organisationId, [{ name, occurredAt, data, changes }]);
    const [{ id, createdAt: recordedAt }] = recorded;
    const event: DomainEvent<K> = { id, name, organisationId, occurredAt, data, recordedAt, manager, whenCommitted };
    await this.emitter.emitAsync(name, event);
  }

  /** As publish for each event in order, recorded in one statement and emitted once: listeners fan out set-based. */
  async publishMany(manager: EntityManager, organisationId: string, events: PublishedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const { recorded, whenCommitted } = this.record(manager, organisationId, events);
    const batch: DomainEventBatch = {
      organisationId,
      events: events.map((event, index) => ({
        ...event,
        id: recorded[index].id,
        recordedAt: recorded[index].createdAt,
      })),
      manager,
      whenCommitted,
    };
    await this.emitter.emitAsync(DOMAIN_EVENT_BATCH, batch);
  }

  /** Records `events` with the COMMIT of the transaction of `manager`, with its origin. */
  private record(
    manager: EntityManager,
    organisationId: string,
    events: Array<Omit<NewEvent, keyof ChangeOrigin>>,
  ): { recorded: RecordedEvent[]; whenCommitted: FanOutCount } {
    const origin = this.originIn(manager, events[0].name);
    const callbacks: Array<(fannedOut: number) => void> = [];
    const recorded = this.events.recordWithCommit(
      organisationId,
      events.map((event) => ({ ...event, ...origin })),
      manager,
      (fannedOut) => callbacks.forEach((callback) => callback(fannedOut)),
    );
    return { recorded, whenCommitted: (callback) => callbacks.push(callback) };
  }

  /**
   * The origin of the transaction of `manager`. Outside the change's transaction, the event and the listeners'
   * writes (the webhook outbox) could commit without the change or the change without them, and in one opened
   * without an origin the event would miss its actor: publishing refuses both.
   */
  private originIn(manager: EntityManager, name: string): ChangeOrigin {
    if (!this.database.inTransaction(manager)) throw new Error(`Domain event ${name} published outside a transaction`);
    const origin = this.database.originOf(manager);
    if (!origin) throw new Error(`Domain event ${name} published in a transaction without its origin`);
    return origin;
  }
}
