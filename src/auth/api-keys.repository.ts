import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { Database } from '../database/database';
import { ApiKey } from './entities/api-key.entity';

/** An API key as operators see it: never its hash, let alone the key. */
export type ApiKeySummary = Omit<ApiKey, 'keyHash'>;

/** A key a revocation named: its organisation and name, and whether this revocation revoked it. */
export interface RevokedKey {
  organisationId: string;
  name: string | null;
  revokedNow: boolean;
}

/** What a request needs of its key, found by the key's hash. */
export type ActiveApiKey = Pick<ApiKey, 'id' | 'organisationId' | 'name' | 'scopes' | 'expiresAt'>;

/** A use of a key, to be recorded as its last use. */
export interface KeyUse {
  organisationId: string;
  id: string;
  usedAt: Date;
}

/** The SQL of API keys. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly database: Database) {}

  async insert(organisationId: string, key: Omit<ApiKey, 'organisationId'>, manager?: EntityManager): Promise<void> {
    await this.database.manager(manager).insert(ApiKey, { ...key, organisationId });
  }

  /** The organisation's keys, revoked ones too, oldest first. */
  async listByOrganisation(organisationId: string, manager?: EntityManager): Promise<ApiKeySummary[]> {
    return this.database.manager(manager).find(ApiKey, {
      select: {
        id: true,
        organisationId: true,
        name: true,
        scopes: true,
        createdAt: true,
        expiresAt: true,
        lastUsedAt: true,
        revokedAt: true,
      },
      where: { organisationId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Across organisations by nature: a request shows only its key, found by the key's hash. Expired ones too. */
  async findActiveByHash(keyHash: string, manager?: EntityManager): Promise<ActiveApiKey | null> {
    return this.database.manager(manager).findOne(ApiKey, {
      select: { id: true, organisationId: true, name: true, scopes: true, expiresAt: true },
      where: { keyHash, revokedAt: IsNull() },
    });
  }

  /**
   * Across organisations by nature (each key with its own): records the uses of many keys in one statement, each
   * at its `usedAt`, unless one at most a minute older is recorded: with several instances, each throttling in
   * memory, a key's row is still written about once a minute.
   */
  async recordUses(uses: KeyUse[], manager?: EntityManager): Promise<void> {
    await this.database.manager(manager).query(
      `UPDATE api_keys k SET last_used_at = u.used_at
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) AS u (organisation_id, id, used_at)
        WHERE k.organisation_id = u.organisation_id AND k.id = u.id
          AND (k.last_used_at IS NULL OR k.last_used_at <= u.used_at - interval '1 minute')`,
      [uses.map((use) => use.organisationId), uses.map((use) => use.id), uses.map((use) => use.usedAt)],
    );
  }

  /**
   * Across organisations by nature: operators revoke a key by its id alone. The key's organisation and name,
   * and whether this call revoked it (a key revoked before stays as it was); null when no key has that id.
   */
  async revoke(id: string, revokedAt: Date, manager?: EntityManager): Promise<RevokedKey | null> {
    return this.revokeOf(null, id, revokedAt, manager);
  }

  /** As revoke, for a key of the organisation only: null for another organisation's key, which stays as it was. */
  async revokeInOrganisation(
    organisationId: string,
    id: string,
    revokedAt: Date,
    manager?: EntityManager,
  ): Promise<RevokedKey | null> {
    return this.revokeOf(organisationId, id, revokedAt, manager);
  }

  /** The key `id`, of `organisationId` unless null. */
  private async revokeOf(
    organisationId: string | null,
    id: string,
    revokedAt: Date,
    manager?: EntityManager,
  ): Promise<RevokedKey | null> {
    const [row]: Array<{ organisation_id: string; name: string | null; revoked_now: boolean }> = await this.database
      .manager(manager)
      .query(
        `WITH revoked AS (
           UPDATE api_keys SET revoked_at = $2
            WHERE id = $1 AND ($3::uuid IS NULL OR organisation_id = $3) AND revoked_at IS NULL
           RETURNING id
         )
         SELECT organisation_id, name, EXISTS (SELECT 1 FROM revoked) AS revoked_now
           FROM api_keys WHERE id = $1 AND ($3::uuid IS NULL OR organisation_id = $3)`,
        [id, revokedAt, organisationId],
      );
    return row ? { organisationId: row.organisation_id, name: row.name, revokedNow: row.revoked_now } : null;
  }

  /** Across organisations by nature: the first start looks for any key at all. */
  async existsAny(manager?: EntityManager): Promise<boolean> {
    return this.database.manager(manager).exists(ApiKey);
  }
}
