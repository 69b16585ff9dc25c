import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';

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

export interface EventsPageQuery {
  after?: EventCursor;
  event?: string;
  limit: number;
}

/** Recorded with the events (to be redeliverable) but never listed: not something that happened to the data. */
const UNLISTED_EVENT = 'webhook.test';

/**
 * Reads the events the webhooks outbox records, and prunes them. Methods take the organisation first and the
 * EntityManager last; pruning spans every organisation.
 */
@Injectable()
export class EventsRepository {
  constructor(private readonly database: Database) {}

  /** The position of a listed event of the organisation; null when it has no such event (any more). */
  async findCursor(organisationId: string, id: string, manager?: EntityManager): Promise<EventCursor | null> {
    const rows: EventCursor[] = await this.database
      .manager(manager)
      .query(`SELECT txid::text AS txid, id FROM events WHERE organisation_id = $1 AND id = $2 AND event <> $3`, [
        organisationId,
        id,
        UNLISTED_EVENT,
      ]);
    return rows[0] ?? null;
  }

  /**
   * Up to `limit` events after the cursor in (txid, id) order, among those written by transactions older than
   * every transaction still running (pg_snapshot_xmin): all of those have ended, so an event that becomes
   * visible later always has a larger txid than any listed now, and a reader paging with `after` misses none.
   */
  async list(organisationId: string, query: EventsPageQuery, manager?: EntityManager): Promise<StoredEvent[]> {
    const parameters: unknown[] = [organisationId, UNLISTED_EVENT, query.limit];
    const conditions = ['organisation_id = $1', 'event <> $2', 'txid < pg_snapshot_xmin(pg_current_snapshot())'];
    if (query.event !== undefined) {
      parameters.push(query.event);
      conditions.push(`event = $${parameters.length}`);
    }
    if (query.after !== undefined) {
      parameters.push(query.after.txid, query.after.id);
      conditions.push(`(txid, id) > ($${parameters.length - 1}::xid8, $${parameters.length}::uuid)`);
    }
    return this.database
      .manager(manager)
      .query(`SELECT id, body FROM events WHERE ${conditions.join(' AND ')} ORDER BY txid, id LIMIT $3`, parameters);
  }

  /**
   * Retention, across every organisation: deletes up to `limit` of the events recorded before `cutoff`, oldest
   * first, with all their deliveries (the foreign key cascades). Answers how many events it deleted.
   */
  async deleteRecordedBefore(cutoff: Date, limit: number, manager?: EntityManager): Promise<number> {
    const [, count]: [unknown[], number] = await this.database.manager(manager).query(
      // = ANY (ARRAY(…)) looks the batch up by primary key; IN (SELECT …) would hash-join a scan of the table.
      `DELETE FROM events
        WHERE id = ANY (ARRAY(SELECT id FROM events WHERE created_at < $1 ORDER BY created_at LIMIT $2))`,
      [cutoff, limit],
    );
    return count;
  }
}
