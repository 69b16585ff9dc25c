import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { eventRule } from '../events/event-catalogue';

/** The response kept for a key: replayed to a request with the same fingerprint. */
export interface KeptResponse {
  fingerprint: string;
  statusCode: number;
  /** The exact body sent. */
  body: string;
}

interface ClaimRow {
  claimed: boolean;
  fingerprint: string | null;
  statusCode: number | null;
  body: string | null;
}

/** A kept response as erasure reads it: with the names of its request's events that named an employee. */
export interface KeptForErasure {
  body: string;
  statusCode: number;
  /** Null for a response kept by 4.0.0, which did not record them. */
  eventNames: string[] | null;
}

/**
 * A kept response (the envelope's text) whose request named the erased employee, redacted as its events are
 * (docs/api-decisions.md, "Data protection"): a success whose `data` is one object goes through the catalogue's
 * rule of the request's event (events/event-catalogue.ts), so a new employee creation gives `{"id"}` and a rating
 * added to them `{"employeeId"}`; lists (bulk results: indexes, statuses and ids) and error answers hold no
 * personal data and stay. One kept by 4.0.0 names no event: `{"id"}` where its data is the employee, else
 * `{"employeeId"}`.
 */
export function redactedKeptBody({ body, statusCode, eventNames }: KeptForErasure, employeeId: string): string {
  const envelope = JSON.parse(body) as { data?: unknown };
  const { data } = envelope;
  if (statusCode >= 400 || data === null || typeof data !== 'object' || Array.isArray(data)) return body;
  const rule = eventNames?.map(eventRule).find((each) => each !== undefined);
  let redacted: unknown;
  if (rule) redacted = rule.redact(data, employeeId);
  else redacted = (data as { id?: unknown }).id === employeeId ? { id: employeeId } : { employeeId };
  return JSON.stringify({ ...envelope, data: redacted });
}

/** All SQL of idempotency keys. Claim and keep run in the request's transaction (the manager passed). */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly database: Database) {}

  /**
   * Claims the key until `manager`'s transaction ends: not `claimed` while another request with the key runs,
   * on any instance (a transaction-scoped advisory lock on a 64-bit hash of organisation and key). With the
   * claim, the response kept for the key unless it expired at `now`: read after the lock is held, so it
   * includes what the request that held it before kept (claim_idempotency_key, sql/claim-idempotency-key.sql).
   */
  async claim(
    organisationId: string,
    key: string,
    now: Date,
    manager: EntityManager,
  ): Promise<{ claimed: boolean; kept: KeptResponse | null }> {
    const [row]: ClaimRow[] = await this.database
      .manager(manager)
      .query(`SELECT claimed, fingerprint, status_code AS "statusCode", body FROM claim_idempotency_key($1, $2, $3)`, [
        organisationId,
        key,
        now,
      ]);
    const { claimed, fingerprint, statusCode, body } = row;
    const found = fingerprint !== null && statusCode !== null && body !== null;
    return { claimed, kept: found ? { fingerprint, statusCode, body } : null };
  }

  /**
   * Keeps the response until `expiresAt`, sent with the COMMIT of `manager`'s transaction (which holds the
   * claim): it commits with the change or not at all. Replaces an expired response the retention job has not
   * removed yet. With it the employees the request's events name (its transaction's events, recorded by
   * statements sent before this one), by which erasure finds the response, and those events' names, by whose
   * rule it redacts it (redactEmployee).
   */
  keep(
    organisationId: string,
    key: string,
    response: KeptResponse,
    createdAt: Date,
    expiresAt: Date,
    manager: EntityManager,
  ): void {
    this.database.sendWithCommit(manager, {
      text: `INSERT INTO idempotency_keys
               (organisation_id, key, fingerprint, status_code, body, created_at, expires_at, employee_ids,
                event_names)
             VALUES ($1, $2, $3, $4, $5, $6, $7,
                     ARRAY(SELECT DISTINCT employee_id FROM events
                            WHERE organisation_id = $1 AND txid = pg_current_xact_id() AND employee_id IS NOT NULL),
                     ARRAY(SELECT DISTINCT event FROM events
                            WHERE organisation_id = $1 AND txid = pg_current_xact_id() AND employee_id IS NOT NULL))
             ON CONFLICT (organisation_id, key) DO UPDATE
                SET fingerprint = excluded.fingerprint, status_code = excluded.status_code, body = excluded.body,
                    created_at = excluded.created_at, expires_at = excluded.expires_at,
                    employee_ids = excluded.employee_ids, event_names = excluded.event_names`,
      values: [organisationId, key, response.fingerprint, response.statusCode, response.body, createdAt, expiresAt],
    });
  }

  /**
   * Erasure: redacts every kept response whose request named the employee (idempotency_keys_employees_idx) as
   * redactedKeptBody says; a retry with the key replays the redacted response and still changes nothing.
   */
  async redactEmployee(organisationId: string, employeeId: string, manager: EntityManager): Promise<number> {
    const kept = await this.database.manager(manager).query<Array<KeptForErasure & { key: string }>>(
      `SELECT key, body, status_code AS "statusCode", event_names AS "eventNames" FROM idempotency_keys
        WHERE organisation_id = $1 AND employee_ids @> ARRAY[$2::uuid]
          FOR UPDATE`,
      [organisationId, employeeId],
    );
    if (kept.length === 0) return 0;
    await this.database.manager(manager).query(
      `UPDATE idempotency_keys SET body = redacted.body
         FROM unnest($2::varchar[], $3::text[]) AS redacted (key, body)
        WHERE idempotency_keys.organisation_id = $1 AND idempotency_keys.key = redacted.key`,
      [organisationId, kept.map((row) => row.key), kept.map((row) => redactedKeptBody(row, employeeId))],
    );
    return kept.length;
  }

  /** Removes up to `limit` keys expired at `now`, across every organisation (the retention job). */
  async deleteExpired(now: Date, limit: number, manager?: EntityManager): Promise<number> {
    const [{ removed }]: Array<{ removed: number }> = await this.database.manager(manager).query(
      // By row address: a batch found on idempotency_keys_expires_idx, deleted without a join. A key refreshed
      // meanwhile (a new row version, a new address) is left alone.
      `WITH removed AS (
         DELETE FROM idempotency_keys
          WHERE ctid = ANY (ARRAY(SELECT ctid FROM idempotency_keys WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2))
         RETURNING 1
       )
       SELECT count(*)::integer AS removed FROM removed`,
      [now, limit],
    );
    return removed;
  }
}
