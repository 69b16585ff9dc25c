import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { SqlConditions } from '../database/sql-conditions';
import type { Changes } from '../events/changes';
import { ListOrder, ListRows, PageWindow, orderByColumns } from '../pagination/cursor';

/** One event about a resource, as its history lists it: its place, the resource's version after it, its body. */
export interface ResourceEventRow {
  id: string;
  /** The writing transaction's id (xid8), as text. */
  txid: string;
  version: number;
  body: Buffer;
}

/** What one recorded change did to a resource: the version it made, the event, the fields `changes` names. */
export interface RecordedChange {
  version: number;
  event: string;
  changes?: Changes | null;
}

/** The changes recorded after version `since`, read by the statement that locked the resource. */
export interface ChangesReadWithLock {
  since: number;
  recorded: RecordedChange[];
}

/**
 * changesSince as a column of the statement that locks the resource (`resource`: its alias there, with `id` and
 * `organisation_id`; `since`: the parameter naming the version), as RecordedChange[], oldest first. That
 * statement's snapshot misses a change committed while it waited for the lock: ResourceVersions sees the version
 * missing and reads again with changesSince.
 */
export function changesSinceColumn(resource: string, since: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('version', e.resource_version, 'event', e.event,
             'changes', convert_from(e.body, 'UTF8')::json -> 'changes') ORDER BY e.resource_version, e.txid, e.id),
             '[]')
           FROM events e
          WHERE e.organisation_id = ${resource}.organisation_id AND e.resource_id = ${resource}.id
            AND e.resource_version > ${since})`;
}

/**
 * One resource's events in the event store, found by events_resource_idx (organisation, resource, version, feed
 * order; migration 1763766100000) without reading the organisation's feed: what GET …/history lists and what
 * If-Match and Base-Version compare a version with. Events are the feed's (events/), read here only.
 */
@Injectable()
export class ResourceEventsRepository {
  constructor(private readonly database: Database) {}

  /**
   * The changes recorded after version `since`, oldest first. Run under the resource's row lock, in the write's
   * transaction: every earlier writer of the resource has committed its events with its change.
   */
  async changesSince(
    organisationId: string,
    resourceId: string,
    since: number,
    manager?: EntityManager,
  ): Promise<RecordedChange[]> {
    const rows = await this.database.manager(manager).query<Array<{ version: number; body: Buffer }>>(
      `SELECT resource_version AS version, body FROM events
        WHERE organisation_id = $1 AND resource_id = $2 AND resource_version > $3
        ORDER BY resource_version, txid, id`,
      [organisationId, resourceId, since],
    );
    return rows.map(({ version, body }) => {
      const { event, changes } = JSON.parse(body.toString('utf8')) as { event: string; changes?: Changes };
      return { version, event, changes };
    });
  }

  /**
   * One window of the resource's history, newest first: by version, then in feed order (a resource without
   * versions, or the events of one version), on events_resource_idx. In page mode, with the exact total.
   */
  async listNewestFirst(
    organisationId: string,
    resourceId: string,
    window: PageWindow,
    manager?: EntityManager,
  ): Promise<ListRows<ResourceEventRow>> {
    const order: ListOrder<ResourceEventRow> = {
      columns: ['resource_version', 'txid', 'id'],
      descending: true,
      keyOf: (row) => [row.version, row.txid, row.id],
    };
    const where = new SqlConditions().and('organisation_id = ?', organisationId).and('resource_id = ?', resourceId);
    const counted = window.counted ? where.sql : null;
    const countParameters = where.parameters;
    where.after(order.columns, order.descending, window.after);
    const page = where.page(window.fetch, window.offset);
    const [rows, total] = await Promise.all([
      this.database.manager(manager).query<ResourceEventRow[]>(
        `SELECT id, txid::text AS txid, resource_version AS version, body FROM events
          WHERE ${where.sql} ORDER BY ${orderByColumns(order)} ${page.sql}`,
        page.parameters,
      ),
      counted === null
        ? null
        : this.database
            .manager(manager)
            .query<Array<{ total: number }>>(
              `SELECT count(*)::int AS total FROM events WHERE ${counted}`,
              countParameters,
            )
            .then(([row]) => row.total),
    ]);
    return { rows, order, total };
  }
}
