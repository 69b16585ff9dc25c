import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { SqlConditions } from '../database/sql-conditions';
import { EventFanOut, NewEvent, RecordedEvent, recordingStatement } from './event-recording';
import { redactedEventBody } from './redaction';

/** The ping of POST /webhooks/{id}/test: recorded as an event (so it can be redelivered), never listed. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Where a reader stands in the feed: the order is (txid, id). */
export interface EventCursor {
  /** The writing transaction's id (xid8), as text: it exceeds what a JavaScript number holds exactly. */
  txid: string;
  id: string;
}

export interface StoredEvent {
  id: string;
  body: Buffer;
}

/** A stored event with its place in the feed. */
export interface PlacedEvent extends StoredEvent {
  txid: string;
}

/** How many of an employee's events erasure rewrites per statement, and the export reads per query. */
export const EMPLOYEE_EVENTS_BATCH = 1_000;

export interface EventsPageQuery {
  after?: EventCursor;
  event?: string;
  limit: number;
}

/**
 * The event store (the `events` table): records events, reads them back for the feed, prunes them. Methods
 * take the organisation first and the EntityManager last; pruning spans every organisation.
 */
@Injectable()
export class EventsRepository {
  /** No fan-out until a feature sets one: it writes nothing. */
  private fanOut: EventFanOut = { sql: '0', committed: () => undefined };

  constructor(private readonly database: Database) {}

  /** Called once at start-up by the feature that fans events out (webhooks/): its write joins every recording. */
  setFanOut(fanOut: EventFanOut): void {
    this.fanOut = fanOut;
  }

  /**
   * Records `event` with a new id now, and the fan-out of it, with `manager`: for a row that later statements
   * of the transaction refer to (the webhook test's delivery). A change's events go with its COMMIT instead
   * (recordWithCommit).
   */
  async record(organisationId: string, event: NewEvent, manager?: EntityManager): Promise<RecordedEvent> {
    const { statement, events } = recordingStatement(organisationId, [event], this.fanOut.sql);
    await this.database.manager(manager).query(statement.text, statement.values);
    return events[0];
  }

  /**
   * Records `events` in order, each with a new id, and the fan-out of them, in one statement sent with the
   * COMMIT of the transaction of `manager` (the changes they tell of): no round trip of their own. Answers
   * the events as they will be stored; once the transaction commits, the fan-out is told how many rows it wrote.
   */
  recordWithCommit(organisationId: string, events: NewEvent[], manager: EntityManager): RecordedEvent[] {
    const { statement, events: recorded } = recordingStatement(organisationId, events, this.fanOut.sql);
    const { fanOut } = this;
    this.database.sendWithCommit<{ fannedOut: number }>(manager, statement, ([{ fannedOut }]) =>
      fanOut.committed(fannedOut, manager),
    );
    return recorded;
  }

  /** The position of a listed event of the organisation; null when it has no such event (any more). */
  async findCursor(organisationId: string, id: string, manager?: EntityManager): Promise<EventCursor | null> {
    const rows: EventCursor[] = await this.database
      .manager(manager)
      .query(`SELECT txid::text AS txid, id FROM events WHERE organisation_id = $1 AND id = $2 AND event <> $3`, [
        organisationId,
        id,
        WEBHOOK_TEST_EVENT,
      ]);
    return rows[0] ?? null;
  }

  /**
   * Up to `limit` events after the cursor in (txid, id) order, among those written by transactions older than
   * every transaction still running (pg_snapshot_xmin): all of those have ended, so an event that becomes
   * visible later always has a larger txid than any listed now, and a reader paging with `after` misses none.
   */
  async list(organisationId: string, query: EventsPageQuery, manager?: EntityManager): Promise<StoredEvent[]> {
    const where = new SqlConditions()
      .and('organisation_id = ?', organisationId)
      .and('event <> ?', WEBHOOK_TEST_EVENT)
      .and('txid < pg_snapshot_xmin(pg_current_snapshot())');
    if (query.event !== undefined) where.and('event = ?', query.event);
    if (query.after !== undefined) where.and('(txid, id) > (?::xid8, ?::uuid)', query.after.txid, query.after.id);
    const parameters = [...where.parameters, query.limit];
    return this.database
      .manager(manager)
      .query(
        `SELECT id, body FROM events WHERE ${where.sql} ORDER BY txid, id LIMIT $${parameters.length}`,
        parameters,
      );
  }

  /**
   * Up to `limit` listed events, newest first (the console's Events page): the newest, those before the cursor,
   * or, with `newer`, the `limit` just after it (still newest first). Listed as `list` lists them: the same
   * order and the same ended transactions, so a page never shows an event the feed does not.
   */
  async listNewestFirst(
    organisationId: string,
    query: { from?: EventCursor; newer?: boolean; event?: string; limit: number },
    manager?: EntityManager,
  ): Promise<StoredEvent[]> {
    const where = new SqlConditions()
      .and('organisation_id = ?', organisationId)
      .and('event <> ?', WEBHOOK_TEST_EVENT)
      .and('txid < pg_snapshot_xmin(pg_current_snapshot())');
    if (query.event !== undefined) where.and('event = ?', query.event);
    const newer = query.newer === true && query.from !== undefined;
    if (query.from !== undefined) {
      where.and(`(txid, id) ${newer ? '>' : '<'} (?::xid8, ?::uuid)`, query.from.txid, query.from.id);
    }
    const parameters = [...where.parameters, query.limit];
    const rows: StoredEvent[] = await this.database
      .manager(manager)
      .query(
        `SELECT id, body FROM events WHERE ${where.sql} ORDER BY txid ${newer ? 'ASC' : 'DESC'}, id ${newer ? 'ASC' : 'DESC'} LIMIT $${parameters.length}`,
        parameters,
      );
    return newer ? rows.reverse() : rows;
  }

  /**
   * Up to `limit` kept events that name the employee (events_employee_idx), in feed order after `after`, the
   * webhook test pings aside: the personal-data export reads them page by page.
   */
  async listNamingEmployee(
    organisationId: string,
    employeeId: string,
    after: EventCursor | null,
    limit: number,
    manager?: EntityManager,
  ): Promise<PlacedEvent[]> {
    return this.database.manager(manager).query(
      `SELECT id, txid::text AS txid, body FROM events
        WHERE organisation_id = $1 AND employee_id = $2 AND event <> $3
          AND (txid, id) > (coalesce($4::xid8, '0'::xid8), coalesce($5::uuid, '00000000-0000-0000-0000-000000000000'))
        ORDER BY txid, id LIMIT $6`,
      [organisationId, employeeId, WEBHOOK_TEST_EVENT, after?.txid ?? null, after?.id ?? null, limit],
    );
  }

  /**
   * Erasure: rewrites the body of every event that names the employee (found by events_employee_idx) as
   * redactedEventBody says, a batch per statement; ids, txids and so the feed's order stay. Their deliveries
   * send the event's body, so a redelivery sends the redacted one. Answers how many events it rewrote.
   */
  async redactEmployee(organisationId: string, employeeId: string, manager: EntityManager): Promise<number> {
    let redacted = 0;
    let after: EventCursor | null = null;
    for (;;) {
      const rows: PlacedEvent[] = await this.database.manager(manager).query(
        `SELECT id, txid::text AS txid, body FROM events
          WHERE organisation_id = $1 AND employee_id = $2
            AND (txid, id) > (coalesce($3::xid8, '0'::xid8), coalesce($4::uuid, '00000000-0000-0000-0000-000000000000'))
          ORDER BY txid, id LIMIT $5
            FOR UPDATE`,
        [organisationId, employeeId, after?.txid ?? null, after?.id ?? null, EMPLOYEE_EVENTS_BATCH],
      );
      if (rows.length === 0) return redacted;
      await this.database.manager(manager).query(
        `UPDATE events SET body = redacted.body
           FROM unnest($2::uuid[], $3::bytea[]) AS redacted (id, body)
          WHERE events.organisation_id = $1 AND events.id = redacted.id`,
        [organisationId, rows.map((row) => row.id), rows.map((row) => redactedEventBody(row.body, employeeId))],
      );
      redacted += rows.length;
      const last = rows[rows.length - 1];
      after = { txid: last.txid, id: last.id };
    }
  }

  /**
   * Retention, across every organisation: deletes up to `limit` of the events recorded before `cutoff`, oldest
   * first, with all their deliveries (the foreign key cascades). Answers how many events it deleted.
   */
  async deleteRecordedBefore(cutoff: Date, limit: number, manager?: EntityManager): Promise<number> {
    const [{ removed }]: Array<{ removed: number }> = await this.database.manager(manager).query(
      // = ANY (ARRAY(…)) looks the batch up by primary key; IN (SELECT …) would hash-join a scan of the table.
      `WITH removed AS (
         DELETE FROM events
          WHERE id = ANY (ARRAY(SELECT id FROM events WHERE created_at < $1 ORDER BY created_at LIMIT $2))
         RETURNING 1
       )
       SELECT count(*)::integer AS removed FROM removed`,
      [cutoff, limit],
    );
    return removed;
  }
}
