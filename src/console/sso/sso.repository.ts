import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';
import { SealedRow, SealedRows } from '../../retention/secrets-resealing.step';

/** An organisation's OpenID Connect provider, its client secret sealed. */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecretSealed: Buffer;
}

/** What an organisation's client secret is sealed for: its row. */
export const sealingContext = (organisationId: string) => `console-sso:${organisationId}`;

/** The SQL of each organisation's single sign-on settings. */
@Injectable()
export class SsoRepository implements SealedRows {
  constructor(private readonly database: Database) {}

  async upsert(organisationId: string, settings: SsoSettings, at: Date, manager?: EntityManager): Promise<void> {
    await this.database.manager(manager).query(
      `INSERT INTO console_sso (organisation_id, issuer, client_id, client_secret_sealed, updated_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organisation_id) DO UPDATE
         SET issuer = excluded.issuer, client_id = excluded.client_id,
             client_secret_sealed = excluded.client_secret_sealed, updated_at = excluded.updated_at`,
      [organisationId, settings.issuer, settings.clientId, settings.clientSecretSealed, at],
    );
  }

  async find(organisationId: string, manager?: EntityManager): Promise<SsoSettings | null> {
    const [row]: Array<{ issuer: string; client_id: string; client_secret_sealed: Buffer }> = await this.database
      .manager(manager)
      .query(`SELECT issuer, client_id, client_secret_sealed FROM console_sso WHERE organisation_id = $1`, [
        organisationId,
      ]);
    return row ? { issuer: row.issuer, clientId: row.client_id, clientSecretSealed: row.client_secret_sealed } : null;
  }

  /** False when the organisation had none. */
  async delete(organisationId: string, manager?: EntityManager): Promise<boolean> {
    const [{ removed }]: Array<{ removed: number }> = await this.database.manager(manager).query(
      `WITH removed AS (DELETE FROM console_sso WHERE organisation_id = $1 RETURNING 1)
       SELECT count(*)::integer AS removed FROM removed`,
      [organisationId],
    );
    return removed === 1;
  }

  /**
   * A re-sealing pass (retention/secrets-resealing.step.ts), across every organisation: up to `limit` client
   * secrets after the organisation `after` names, in its id order, each bound to sealingContext(organisation).
   */
  async sealedAfter(after: string | null, limit: number, manager?: EntityManager): Promise<SealedRow[]> {
    const rows: Array<{ organisationId: string; clientSecretSealed: Buffer }> = await this.database
      .manager(manager)
      .query(
        `SELECT organisation_id AS "organisationId", client_secret_sealed AS "clientSecretSealed"
           FROM console_sso
          WHERE $1::uuid IS NULL OR organisation_id > $1::uuid
          ORDER BY organisation_id
          LIMIT $2`,
        [after, limit],
      );
    return rows.map(({ organisationId, clientSecretSealed }) => ({
      id: organisationId,
      organisationId,
      context: sealingContext(organisationId),
      sealed: [clientSecretSealed],
    }));
  }

  /** Replaces the client secret with the same secret sealed again, unless it changed since `row` was read. */
  async replaceSealed(
    organisationId: string,
    row: SealedRow,
    [clientSecretSealed]: Array<Buffer | null>,
    manager?: EntityManager,
  ): Promise<boolean> {
    const [{ replaced }]: Array<{ replaced: number }> = await this.database.manager(manager).query(
      `WITH replaced AS (
         UPDATE console_sso SET client_secret_sealed = $2 WHERE organisation_id = $1 AND client_secret_sealed = $3
         RETURNING 1
       )
       SELECT count(*)::integer AS replaced FROM replaced`,
      [organisationId, clientSecretSealed, row.sealed[0]],
    );
    return replaced === 1;
  }
}
