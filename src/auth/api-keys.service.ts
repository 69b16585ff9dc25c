import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import { isUuid, newId } from '../common/uuid';
import { generateApiKey, hashApiKey } from './api-key-hash';
import { ApiKeysRepository, ApiKeySummary } from './api-keys.repository';

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

  constructor(private readonly apiKeys: ApiKeysRepository) {}

  async create(organisationId: string, label?: string): Promise<CreatedApiKey> {
    const key = generateApiKey();
    const id = newId();
    await this.apiKeys.insert(organisationId, {
      id,
      label: label ?? null,
      keyHash: hashApiKey(key),
      createdAt: new Date(),
      revokedAt: null,
    });
    return { id, organisationId, key };
  }

  /** The organisation's keys, revoked ones too, oldest first; never a key or its hash. */
  async list(organisationId: string): Promise<ApiKeySummary[]> {
    return this.apiKeys.listByOrganisation(organisationId);
  }

  async revoke(id: string): Promise<void> {
    if (!isUuid(id) || !(await this.apiKeys.revoke(id.toLowerCase(), new Date()))) {
      throw new NotFoundError(`API key "${String(id)}"`);
    }
  }

  async hasAnyKey(): Promise<boolean> {
    return this.apiKeys.existsAny();
  }

  /** The organisation behind a clear key, or null when the key is unknown or revoked. */
  async authenticate(clearKey: string): Promise<AuthenticatedKey | null> {
    const hash = hashApiKey(clearKey);
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached.key;

    const row = await this.apiKeys.findActiveByHash(hash);
    if (!row) {
      this.cache.delete(hash);
      return null;
    }
    const key = { keyId: row.id, organisationId: row.organisationId };
    this.cache.set(hash, { key, expiresAt: Date.now() + KEY_CACHE_TTL_MS });
    return key;
  }
}
