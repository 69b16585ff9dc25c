import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { Database } from '../database/database';
import { ApiKey } from './entities/api-key.entity';

/** An API key as operators see it: never its hash, let alone the key. */
export type ApiKeySummary = Pick<ApiKey, 'id' | 'organisationId' | 'label' | 'createdAt' | 'revokedAt'>;

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
      select: { id: true, organisationId: true, label: true, createdAt: true, revokedAt: true },
      where: { organisationId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Across organisations by nature: a request shows only its key, found by the key's hash. */
  async findActiveByHash(
    keyHash: string,
    manager?: EntityManager,
  ): Promise<Pick<ApiKey, 'id' | 'organisationId'> | null> {
    return this.database.manager(manager).findOne(ApiKey, {
      select: { id: true, organisationId: true },
      where: { keyHash, revokedAt: IsNull() },
    });
  }

  /**
   * Across organisations by nature: operators revoke a key by its id alone. False when no key has
   * that id; a key revoked before stays as it was.
   */
  async revoke(id: string, revokedAt: Date, manager?: EntityManager): Promise<boolean> {
    const database = this.database.manager(manager);
    const result = await database.update(ApiKey, { id, revokedAt: IsNull() }, { revokedAt });
    if (result.affected) return true;
    return database.existsBy(ApiKey, { id });
  }

  /** Across organisations by nature: the first start looks for any key at all. */
  async existsAny(manager?: EntityManager): Promise<boolean> {
    return this.database.manager(manager).exists(ApiKey);
  }
}
