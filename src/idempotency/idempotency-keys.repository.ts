import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';

/** The response kept for a key: replayed to a request with the same fingerprint. */
export interface KeptResponse {
  fingerprint: string;
  statusCode: number;
  /** The exact body sent. */
  body: string;
}

/** All SQL of idempotency keys. Each method runs in the request's transaction (the manager passed). */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly database: Database) {}

  /**
   * Claims the key until the transaction ends; false while another request with it is running, on any
   * instance. A transaction-scoped advisory lock on a 64-bit hash of organisation and key.
   */
  async tryClaim(organisationId: string, key: string, manager?: EntityManager): Promise<boolean> {
    const [{ claimed }] = await this.database
      .manager(manager)
      .query<{ claimed: boolean }[]>(
        `SELECT pg_try_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0)) AS claimed`,
        [organisationId, key],
      );
    return claimed;
  }

  /** The response kept for the key, unless it expired at `now`. */
  async find(organisationId: string, key: string, now: Date, manager?: EntityManager): Promise<KeptResponse | null> {
    const [row] = await this.database.manager(manager).query<KeptResponse[]>(
      `SELECT fingerprint, status_code AS "statusCode", body FROM idempotency_keys
        WHERE organisation_id = $1 AND key = $2 AND expires_at > $3`,
      [organisationId, key, now],
    );
    return row ?? null;
  }

  /** Keeps the response until `expiresAt`, replacing an expired one the retention job has not removed yet. */
  async keep(
    organisationId: string,
    key: string,
    response: KeptResponse,
    createdAt: Date,
    expiresAt: Date,
    manager?: EntityManager,
  ): Promise<void> {
    await this.database.manager(manager).query(
      `INSERT INTO idempotency_keys (organisation_id, key, fingerprint, status_code, body, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (organisation_id, key) DO UPDATE
          SET fingerprint = excluded.fingerprint, status_code = excluded.status_code, body = excluded.body,
              created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [organisationId, key, response.fingerprint, response.statusCode, response.body, createdAt, expiresAt],
    );
  }

  /** Removes up to `limit` keys expired at `now`, across every organisation (the retention job). */
  async deleteExpired(now: Date, limit: number, manager?: EntityManager): Promise<number> {
    const [, removed]: [unknown, number] = await this.database.manager(manager).query(
      // By row address: a batch found on idempotency_keys_expires_idx, deleted without a join. A key refreshed
      // meanwhile (a new row version, a new address) is left alone.
      `DELETE FROM idempotency_keys
        WHERE ctid = ANY (ARRAY(SELECT ctid FROM idempotency_keys WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2))`,
      [now, limit],
    );
    return removed;
  }
}
