import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { ActivityAction } from './activity-action';

export interface ActivityEntry {
  id: string;
  at: Date;
  /** A person's email, or "cli". */
  actor: string;
  action: ActivityAction;
  target: string | null;
  clientAddress: string | null;
}

/** Which rows of the log, newest first: the first page, those older than an entry, or those newer. */
export type ActivityWindow = { before?: string; after?: string; limit: number };

interface EntryRow {
  id: string;
  at: Date;
  actor: string;
  action: ActivityAction;
  target: string | null;
  client_address: string | null;
}

/** The SQL of the activity log. Ids are UUID v7, so their order is the log's. */
@Injectable()
export class ActivityRepository {
  constructor(private readonly database: Database) {}

  async insert(organisationId: string, entry: ActivityEntry, manager?: EntityManager): Promise<void> {
    await this.database.manager(manager).query(
      `INSERT INTO console_activity (id, organisation_id, at, actor, action, target, client_address)
       VALUES ($2, $1, $3, $4, $5, $6, $7)`,
      [organisationId, entry.id, entry.at, entry.actor, entry.action, entry.target, entry.clientAddress],
    );
  }

  /**
   * Up to `limit + 1` entries of the window, newest first (one more than a page tells whether another follows).
   * Paged by id in both directions: the pagination module's cursors go forward only, and the page has "Newer".
   */
  async window(organisationId: string, window: ActivityWindow, manager?: EntityManager): Promise<ActivityEntry[]> {
    const database = this.database.manager(manager);
    const columns = 'id, at, actor, action, target, client_address';
    let rows: EntryRow[];
    if (window.after !== undefined) {
      rows = await database.query(
        `SELECT ${columns} FROM console_activity WHERE organisation_id = $1 AND id > $2 ORDER BY id ASC LIMIT $3`,
        [organisationId, window.after, window.limit + 1],
      );
      rows.reverse();
    } else if (window.before !== undefined) {
      rows = await database.query(
        `SELECT ${columns} FROM console_activity WHERE organisation_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`,
        [organisationId, window.before, window.limit + 1],
      );
    } else {
      rows = await database.query(
        `SELECT ${columns} FROM console_activity WHERE organisation_id = $1 ORDER BY id DESC LIMIT $2`,
        [organisationId, window.limit + 1],
      );
    }
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      actor: row.actor,
      action: row.action,
      target: row.target,
      clientAddress: row.client_address,
    }));
  }

  /** Across organisations by nature (retention). */
  async deleteBefore(before: Date, batch: number, manager: EntityManager): Promise<number> {
    const [{ removed }]: Array<{ removed: number }> = await this.database.manager(manager).query(
      `WITH removed AS (
         DELETE FROM console_activity
          WHERE id = ANY (ARRAY(SELECT id FROM console_activity WHERE at < $1 ORDER BY at LIMIT $2))
         RETURNING 1
       )
       SELECT count(*)::integer AS removed FROM removed`,
      [before, batch],
    );
    return removed;
  }
}
