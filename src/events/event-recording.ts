import type { EntityManager } from 'typeorm';
import type { Statement } from '../database/database';
import { newId } from '../database/uuid';
import { Actor, eventActor } from '../database/write-context';
import type { Changes } from './changes';

/** What happened, as its producer says it, and where the change came from. A new field of every event goes here. */
export interface NewEvent {
  name: string;
  occurredAt: Date;
  data: unknown;
  /** Only on `*.updated` events: what the change altered. */
  changes?: Changes;
  actor: Actor;
  requestId: string | null;
  /** Stored beside the body, not in it: sent as the `traceparent` header of each delivery. */
  traceparent: string | null;
  /** The employee the event names, stored beside the body: what erasure and the personal-data export find it by. */
  employeeId: string | null;
  /** The resource the event is about, stored beside the body: what its history is read by; absent: none. */
  resourceId?: string | null;
  /** That resource's version after the change; absent or 0: the resource has none. */
  resourceVersion?: number;
}

/** An event as stored: the row GET /events lists and every webhook delivery of it sends. */
export interface RecordedEvent {
  id: string;
  name: string;
  /** The exact bytes sent and signed: `{"event","timestamp","data","changes"?,"actor","requestId"}`. */
  body: Buffer;
  /** When it was recorded: the age retention goes by. */
  createdAt: Date;
}

/**
 * Another feature's write in the one statement that records events (webhooks/ queues their deliveries, so an
 * event and its outbox rows cost one round trip), which that feature registers once at start-up
 * (EventsRepository.setFanOut).
 */
export interface EventFanOut {
  /**
   * An integer SQL expression, evaluated once the events are written, that writes its rows and answers how many.
   * It reads the events from the row `recorded`: `recorded.organisation_id` (uuid: every event recorded together
   * is of one organisation), `recorded.event_ids` and `recorded.event_names` (uuid[] and text[], the events in
   * order) and `recorded.recorded_at` (timestamptz).
   */
  readonly sql: string;
  /**
   * Told, once the transaction of `manager` has committed, how many rows `sql` wrote in one of its recording
   * statements; never when it rolls back. Runs before the transaction's afterCommit callbacks, so it may still
   * register one (Database.afterCommit).
   */
  committed(fannedOut: number, manager: EntityManager): void;
}

/** The body of an event, built in this one place from the event, so the feed and every delivery agree. */
function eventBody(event: NewEvent): Buffer {
  const { name, occurredAt, data, changes, actor, requestId } = event;
  // JSON.stringify leaves out `changes` when undefined: only `*.updated` events carry it.
  const body = {
    event: name,
    timestamp: occurredAt.toISOString(),
    data,
    changes,
    actor: eventActor(actor),
    requestId,
  };
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/**
 * The one statement that records `events` in order, each with a new id, through record_events_v2 (sql/), and then
 * runs the fan-out `fanOutSql` (EventFanOut.sql) over them: it answers one row, `fannedOut`, how many rows the
 * fan-out wrote. Also answers the events as they will be stored. Kept free of Nest, as the bench baseline sends it.
 */
export function recordingStatement(
  organisationId: string,
  events: NewEvent[],
  fanOutSql: string,
): { statement: Statement; events: RecordedEvent[] } {
  const createdAt = new Date();
  const recorded = events.map((event) => ({ id: newId(), name: event.name, body: eventBody(event), createdAt }));
  // MATERIALIZED: the fan-out reads `recorded` once record_events has written the events.
  const text = `WITH recorded AS MATERIALIZED (SELECT record_events_v2($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) AS written,
       $1::uuid AS organisation_id, $2::uuid[] AS event_ids, $3::text[] AS event_names, $6::timestamptz AS recorded_at)
     SELECT ${fanOutSql} AS "fannedOut" FROM recorded`;
  const values = [
    organisationId,
    recorded.map((event) => event.id),
    recorded.map((event) => event.name),
    events.map((event) => event.occurredAt),
    recorded.map((event) => event.body),
    createdAt,
    events.map((event) => event.traceparent),
    events.map((event) => event.employeeId),
    events.map((event) => event.resourceId ?? null),
    events.map((event) => event.resourceVersion ?? 0),
  ];
  return { statement: { text, values }, events: recorded };
}
