import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

/** The tables of the resources GET …/history serves (their features own them; this only reads whether a row is there). */
export type HistoryTable = 'employees' | 'skills';

/** Whether a resource with a history still exists. */
@Injectable()
export class HistoryRepository {
  constructor(private readonly database: Database) {}

  async exists(organisationId: string, table: HistoryTable, id: string): Promise<boolean> {
    const rows = await this.database
      .manager()
      .query<unknown[]>(`SELECT 1 FROM ${table} WHERE organisation_id = $1 AND id = $2`, [organisationId, id]);
    return rows.length > 0;
  }
}
