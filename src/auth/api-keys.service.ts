import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { NotFoundError } from '../common/errors';
import { isUuid, newId } from '../common/uuid';
import { generateApiKey, hashApiKey } from './api-key-hash';
import { ApiKey } from './entities/api-key.entity';

export interface AuthenticatedKey {
  keyId: string;
  organisationId: string;
}

export interface CreatedApiKey {
  id: string;
  organisationId: string;
  /** The clear key: returned once, never stored. */
  key: string;
}

/**
 * How long a resolved key is trusted without asking the database. It bounds how late a revocation
 * takes effect on any instance (the contract allows 5 s).
 */
export const KEY_CACHE_TTL_MS = 2000;

@Injectable()
export class ApiKeysService {
  private readonly cache = new Map<string, { key: AuthenticatedKey; expiresAt: number }>();

  constructor(private readonly dataSource: DataSource) {}

  async create(organisationId: string, label?: string): Promise<CreatedApiKey> {
    const key = generateApiKey();
    const apiKey = await this.dataSource.getRepository(ApiKey).save({
      id: newId(),
      organisationId,
      label: label ?? null,
      keyHash: hashApiKey(key),
      createdAt: new Date(),
      revokedAt: null,
    });
    return { id: apiKey.id, organisationId, key };
  }

  async revoke(id: string): Promise<void> {
    if (!isUuid(id)) throw new NotFoundError(`API key "${id}"`);
    const result = await this.dataSource
      .getRepository(ApiKey)
      .update({ id: id.toLowerCase(), revokedAt: IsNull() }, { revokedAt: new Date() });
    if (!result.affected && !(await this.dataSource.getRepository(ApiKey).existsBy({ id: id.toLowerCase() }))) {
      throw new NotFoundError(`API key "${id}"`);
    }
  }

  async hasAnyKey(): Promise<boolean> {
    return this.dataSource.getRepository(ApiKey).exists();
  }

  /** The organisation behind a clear key, or null when the key is unknown or revoked. */
  async authenticate(clearKey: string): Promise<AuthenticatedKey | null> {
    const hash = hashApiKey(clearKey);
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached.key;

    const row = await this.dataSource
      .getRepository(ApiKey)
      .findOne({ select: { id: true, organisationId: true }, where: { keyHash: hash, revokedAt: IsNull() } });
    if (!row) {
      this.cache.delete(hash);
      return null;
    }
    const key = { keyId: row.id, organisationId: row.organisationId };
    this.cache.set(hash, { key, expiresAt: Date.now() + KEY_CACHE_TTL_MS });
    return key;
  }
}
