import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { SealedRow, SealedRows } from '../retention/secrets-resealing.step';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity';

export interface NewEndpoint {
  id: string;
  url: string;
  events: string[];
  secretSealed: Buffer | null;
  createdAt: Date;
}

/** An endpoint's secrets as sealed, for re-sealing them. */
interface SealedEndpointSecrets {
  id: string;
  organisationId: string;
  secretSealed: Buffer | null;
  previousSecretSealed: Buffer | null;
}

/** The webhook_endpoints columns under the WebhookEndpoint entity's property names. */
const ENDPOINT_COLUMNS = `id, organisation_id AS "organisationId", url, events, secret_sealed AS "secretSealed",
  previous_secret_sealed AS "previousSecretSealed", previous_secret_expires_at AS "previousSecretExpiresAt",
  created_at AS "createdAt", version`;

/**
 * The SQL of webhook endpoints. Every method takes the organisation first and the transaction's
 * EntityManager last (optional: without it, the pool).
 */
@Injectable()
export class WebhookEndpointsRepository implements SealedRows {
  constructor(private readonly database: Database) {}

  /** Oldest first. */
  list(organisationId: string, manager?: EntityManager): Promise<WebhookEndpoint[]> {
    return this.database.manager(manager).find(WebhookEndpoint, {
      where: { organisationId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  findById(organisationId: string, id: string, manager?: EntityManager): Promise<WebhookEndpoint | null> {
    return this.database.manager(manager).findOneBy(WebhookEndpoint, { organisationId, id });
  }

  /**
   * Queues the organisation's endpoint creations behind this transaction, so two at once cannot both take the
   * last place. NO KEY UPDATE leaves foreign-key checks of other tables on the organisation unblocked.
   */
  async lockForCreation(organisationId: string, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`SELECT 1 FROM organisations WHERE id = $1 FOR NO KEY UPDATE`, [organisationId]);
  }

  count(organisationId: string, manager?: EntityManager): Promise<number> {
    return this.database.manager(manager).countBy(WebhookEndpoint, { organisationId });
  }

  async insert(organisationId: string, endpoint: NewEndpoint, manager?: EntityManager): Promise<WebhookEndpoint> {
    const row: WebhookEndpoint = {
      ...endpoint,
      organisationId,
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      version: 1,
    };
    await this.database.manager(manager).insert(WebhookEndpoint, row);
    return row;
  }

  /** False when the organisation has no such endpoint. */
  /** Deletes the endpoint; answers its URL, or null when the organisation has no such endpoint. */
  async delete(organisationId: string, id: string, manager?: EntityManager): Promise<string | null> {
    const [deleted] = await this.database.manager(manager).query<Array<{ url: string }>>(
      // As a SELECT, so the driver answers rows (a bare DELETE … RETURNING answers rows and a count).
      `WITH deleted AS (DELETE FROM webhook_endpoints WHERE organisation_id = $1 AND id = $2 RETURNING url)
         SELECT url FROM deleted`,
      [organisationId, id],
    );
    return deleted?.url ?? null;
  }

  /**
   * Reads the endpoint and holds it until the transaction ends, so recoveries of one endpoint run one after
   * another. NO KEY UPDATE does not block the outbox's KEY SHARE reads of it.
   */
  async findForUpdate(organisationId: string, id: string, manager?: EntityManager): Promise<WebhookEndpoint | null> {
    const [endpoint] = await this.database
      .manager(manager)
      .query<WebhookEndpoint[]>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organisation_id = $1 AND id = $2 FOR NO KEY UPDATE`,
        [organisationId, id],
      );
    return endpoint ?? null;
  }

  /**
   * Makes `secretSealed` the endpoint's secret in one statement. With `previousUntil`, the secret it had (sealed
   * as it was) becomes the previous one until then; without, no previous secret is kept.
   */
  async rotateSecret(
    organisationId: string,
    id: string,
    secretSealed: Buffer,
    previousUntil: Date | null,
    manager?: EntityManager,
  ): Promise<WebhookEndpoint | null> {
    // The right-hand side of SET reads the row as it was, so previous_secret_sealed takes the old secret.
    const rows: WebhookEndpoint[] = await this.database.manager(manager).query(
      `WITH rotated AS (
         UPDATE webhook_endpoints
            SET previous_secret_sealed = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE secret_sealed END,
                previous_secret_expires_at = $4::timestamptz,
                secret_sealed = $3,
                version = version + 1
          WHERE organisation_id = $1 AND id = $2
         RETURNING ${ENDPOINT_COLUMNS}
       )
       SELECT * FROM rotated`,
      [organisationId, id, secretSealed, previousUntil],
    );
    return rows[0] ?? null;
  }

  /**
   * Retention, across every organisation: erases the previous secrets whose overlap ended by `now`.
   * Answers how many endpoints it changed.
   */
  async erasePreviousSecrets(now: Date, manager?: EntityManager): Promise<number> {
    const [{ erased }]: Array<{ erased: number }> = await this.database.manager(manager).query(
      `WITH erased AS (
         UPDATE webhook_endpoints SET previous_secret_sealed = NULL, previous_secret_expires_at = NULL
          WHERE previous_secret_expires_at <= $1
         RETURNING 1
       )
       SELECT count(*)::integer AS erased FROM erased`,
      [now],
    );
    return erased;
  }

  /**
   * A re-sealing pass (retention/secrets-resealing.step.ts), across every organisation: up to `limit` endpoints
   * after the one `after` names, in id order, with both sealed secrets, each bound to the endpoint's id.
   */
  async sealedAfter(after: string | null, limit: number, manager?: EntityManager): Promise<SealedRow[]> {
    const rows: SealedEndpointSecrets[] = await this.database.manager(manager).query(
      `SELECT id, organisation_id AS "organisationId", secret_sealed AS "secretSealed",
              previous_secret_sealed AS "previousSecretSealed"
         FROM webhook_endpoints
        WHERE $1::uuid IS NULL OR id > $1::uuid
        ORDER BY id
        LIMIT $2`,
      [after, limit],
    );
    return rows.map(({ id, organisationId, secretSealed, previousSecretSealed }) => ({
      id,
      organisationId,
      context: id,
      sealed: [secretSealed, previousSecretSealed],
    }));
  }

  /**
   * Replaces an endpoint's sealed secrets with the same secrets sealed again, unless they changed since `row` was
   * read (its own rotation); whether it did.
   */
  async replaceSealed(
    organisationId: string,
    row: SealedRow,
    [secretSealed, previousSecretSealed]: Array<Buffer | null>,
    manager?: EntityManager,
  ): Promise<boolean> {
    const [{ replaced }]: Array<{ replaced: number }> = await this.database.manager(manager).query(
      `WITH replaced AS (
         UPDATE webhook_endpoints SET secret_sealed = $3, previous_secret_sealed = $4
          WHERE organisation_id = $1 AND id = $2
            AND secret_sealed IS NOT DISTINCT FROM $5::bytea AND previous_secret_sealed IS NOT DISTINCT FROM $6::bytea
         RETURNING 1
       )
       SELECT count(*)::integer AS replaced FROM replaced`,
      [organisationId, row.id, secretSealed, previousSecretSealed, row.sealed[0], row.sealed[1]],
    );
    return replaced === 1;
  }
}
