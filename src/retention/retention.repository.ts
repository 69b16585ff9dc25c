import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';

/** Names the retention job's advisory lock: one run at a time across every instance on the database. */
const RETENTION_LOCK_KEY = 4_725_173_012;

@Injectable()
export class RetentionRepository {
  constructor(private readonly database: Database) {}

  /**
   * Database-wide (no organisation): takes the retention lock until `manager`'s transaction ends; false when
   * another instance holds it.
   */
  async tryLock(manager: EntityManager): Promise<boolean> {
    const [row]: Array<{ locked: boolean }> = await this.database
      .manager(manager)
      .query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [RETENTION_LOCK_KEY]);
    return row.locked;
  }
}
