import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';

/** An organisation's OpenID Connect provider, its client secret sealed. */
export interface SsoSettings {
  issuer: string;
  clientId: string;
  clientSecretSealed: Buffer;
}

/** The SQL of each organisation's single sign-on settings. */
@Injectable()
export class SsoRepository {
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
   * A rotation of the service secret, across every organisation: up to `limit` client secrets not sealed with the
   * key whose sealed values start with `prefix`, locked (skipping those a change of the settings holds).
   */
  async lockSealedOtherwise(
    prefix: Buffer,
    limit: number,
    manager?: EntityManager,
  ): Promise<Array<{ organisationId: string; clientSecretSealed: Buffer }>> {
    return this.database.manager(manager).query(
      `SELECT organisation_id AS "organisationId", client_secret_sealed AS "clientSecretSealed"
         FROM console_sso
        WHERE substring(client_secret_sealed FROM 1 FOR octet_length($1::bytea)) <> $1::bytea
        LIMIT $2
          FOR UPDATE SKIP LOCKED`,
      [prefix, limit],
    );
  }

  /** Replaces the client secret with the same secret sealed again (lockSealedOtherwise locked it). */
  async replaceSealed(organisationId: string, clientSecretSealed: Buffer, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`UPDATE console_sso SET client_secret_sealed = $2 WHERE organisation_id = $1`, [
        organisationId,
        clientSecretSealed,
      ]);
  }
}
