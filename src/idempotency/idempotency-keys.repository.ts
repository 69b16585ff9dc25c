import { Injectable } from '@nestjs/common';
import { escapeLiteral } from 'pg';
import { EntityManager } from 'typeorm';
import { BatchedTransaction, Database } from '../database/database';

/** The response kept for a key: replayed to a request with the same fingerprint. */
export interface KeptResponse {
  fingerprint: string;
  statusCode: number;
  /** The exact body sent. */
  body: string;
}

/** All SQL of idempotency keys. Claim and keep open and commit the request's transaction (the one passed). */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly database: Database) {}

  /**
   * Opens `transaction` and claims the key in it, until it ends: not `claimed` while another request with
   * the key runs, on any instance (a transaction-scoped advisory lock on a 64-bit hash of organisation and
   * key). With the claim, the response kept for the key unless it expired at `now`: read after the lock is
   * held, so it includes what the request that held it before kept.
   */
  async claim(
    organisationId: string,
    key: string,
    now: Date,
    transaction: BatchedTransaction,
  ): Promise<{ claimed: boolean; kept: KeptResponse | null }> {
    const [[{ claimed }], [kept]] = await transaction.begin<[[{ claimed: boolean }], KeptResponse[]]>(
      `SELECT pg_try_advisory_xact_lock(hashtextextended(${escapeLiteral(`${organisationId}:${key}`)}, 0)) AS claimed`,
      `SELECT fingerprint, status_code AS "statusCode", body FROM idempotency_keys
        WHERE organisation_id = ${escapeLiteral(organisationId)} AND key = ${escapeLiteral(key)}
          AND expires_at > ${escapeLiteral(now.toISOString())}`,
    );
    return { claimed, kept: kept ?? null };
  }

  /**
   * Keeps the response until `expiresAt` and commits `transaction` (which holds the claim). Replaces an
   * expired response the retention job has not removed yet.
   */
  async keep(
    organisationId: string,
    key: string,
    response: KeptResponse,
    createdAt: Date,
    expiresAt: Date,
    transaction: BatchedTransaction,
  ): Promise<void> {
    const values = [
      organisationId,
      key,
      response.fingerprint,
      String(response.statusCode),
      response.body,
      createdAt.toISOString(),
      expiresAt.toISOString(),
    ].map(escapeLiteral);
    await transaction.commit(
      `INSERT INTO idempotency_keys (organisation_id, key, fingerprint, status_code, body, created_at, expires_at)
       VALUES (${values.join(', ')})
       ON CONFLICT (organisation_id, key) DO UPDATE
          SET fingerprint = excluded.fingerprint, status_code = excluded.status_code, body = excluded.body,
              created_at = excluded.created_at, expires_at = excluded.expires_at`,
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
