import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ActivityLog } from '../audit/activity-log';
import { BookkeepingQueue, BookkeepingWrites } from '../database/bookkeeping-writes';
import { Database } from '../database/database';
import { isUuid, newId } from '../database/uuid';
import type { Actor } from '../database/write-context';
import { NotFoundError, ValidationError } from '../errors/errors';
import { generateApiKey, hashApiKey } from './api-key-hash';
import { ApiKeysRepository, ApiKeySummary, KeyUse, RevokedKey } from './api-keys.repository';
import { API_SCOPES, ApiScope, isApiScope } from './scopes';

export interface AuthenticatedKey {
  keyId: string;
  organisationId: string;
  name: string | null;
  scopes: readonly ApiScope[];
  expiresAt: Date | null;
}

export interface NewApiKey {
  name?: string;
  /** Absent: all five scopes (docs/api-decisions.md, "Scoped API keys" and "Data protection"). */
  scopes?: readonly string[];
  expiresAt?: Date;
}

export interface CreatedApiKey {
  id: string;
  organisationId: string;
  name: string | null;
  scopes: ApiScope[];
  expiresAt: Date | null;
  /** The clear key: returned once, never stored. */
  key: string;
}

/**
 * How long a resolved key is trusted without asking the database. It bounds how late a revocation
 * takes effect on any instance (the contract allows 5 s); an expiry is checked on every request.
 */
export const KEY_CACHE_TTL_MS = 2000;

/** A key's last use is written at most this often by one instance (and the row's guard, by all of them). */
export const LAST_USED_PRECISION_MS = 60_000;

const NAME_MAX_LENGTH = 200;
/** Keys whose last write is remembered at most; past it the memory starts over (this only bounds memory). */
const MAX_REMEMBERED_USES = 10_000;

@Injectable()
export class ApiKeysService implements OnModuleDestroy {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly cache = new Map<string, { key: AuthenticatedKey; cachedUntil: number }>();
  /** When this instance last queued each key's lastUsedAt. */
  private readonly usesWritten = new Map<string, number>();
  /** The uses due to be written, all keys' in one bookkeeping write at a time. */
  private readonly uses: BookkeepingQueue<KeyUse>;

  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly database: Database,
    private readonly activity: ActivityLog,
    bookkeeping: BookkeepingWrites,
  ) {
    this.uses = new BookkeepingQueue(
      bookkeeping,
      'API key last use',
      (uses, manager) => this.apiKeys.recordUses(uses, manager),
      (error, keys) => this.logger.warn(`Could not record the last use of ${keys} API keys yet: ${String(error)}`),
    );
  }

  onModuleDestroy(): void {
    this.uses.stop();
  }

  /**
   * With an `actor` (the command line, a console user) the change goes into the activity log in its transaction;
   * tests and benches make keys without one.
   */
  async create(organisationId: string, options: NewApiKey = {}, actor?: Actor): Promise<CreatedApiKey> {
    const name = options.name ?? null;
    if (name !== null && (name.trim() === '' || name.length > NAME_MAX_LENGTH)) {
      throw ValidationError.forField('name', `A key's name has 1 to ${NAME_MAX_LENGTH} characters`);
    }
    const scopes = canonicalScopes(options.scopes ?? API_SCOPES);
    const expiresAt = options.expiresAt ?? null;
    const key = generateApiKey();
    const id = newId();
    const insert = (manager?: EntityManager) =>
      this.apiKeys.insert(
        organisationId,
        {
          id,
          name,
          keyHash: hashApiKey(key),
          scopes,
          createdAt: new Date(),
          expiresAt,
          lastUsedAt: null,
          revokedAt: null,
        },
        manager,
      );
    if (actor) {
      await this.database.transaction(async (manager) => {
        await insert(manager);
        await this.activity.record(organisationId, actor, 'key created', keyTarget(id, name), manager);
      });
    } else {
      await insert();
    }
    return { id, organisationId, name, scopes, expiresAt, key };
  }

  /** The organisation's keys, revoked ones too, oldest first; never a key or its hash. */
  async list(organisationId: string): Promise<ApiKeySummary[]> {
    return this.apiKeys.listByOrganisation(organisationId);
  }

  /** A key revoked before stays as it was, and is not announced again. */
  async revoke(id: string, actor?: Actor): Promise<void> {
    await this.revokeWith(id, actor, (keyId, at, manager) => this.apiKeys.revoke(keyId, at, manager));
  }

  /**
   * As revoke, for a key of the organisation only (the console): another organisation's key, like an unknown
   * one, is 404 and stays as it was.
   */
  async revokeInOrganisation(organisationId: string, id: string, actor: Actor): Promise<void> {
    await this.revokeWith(id, actor, (keyId, at, manager) =>
      this.apiKeys.revokeInOrganisation(organisationId, keyId, at, manager),
    );
  }

  private async revokeWith(
    id: string,
    actor: Actor | undefined,
    revoke: (id: string, at: Date, manager: EntityManager) => Promise<RevokedKey | null>,
  ): Promise<void> {
    const notFound = new NotFoundError(`API key "${String(id)}"`);
    if (!isUuid(id)) throw notFound;
    await this.database.transaction(async (manager) => {
      const revoked = await revoke(id.toLowerCase(), new Date(), manager);
      if (!revoked) throw notFound;
      if (actor && revoked.revokedNow) {
        const target = keyTarget(id.toLowerCase(), revoked.name);
        await this.activity.record(revoked.organisationId, actor, 'key revoked', target, manager);
      }
    });
  }

  async hasAnyKey(): Promise<boolean> {
    return this.apiKeys.existsAny();
  }

  /** The key behind a clear key and its organisation, or null when the key is unknown, revoked or expired. */
  async authenticate(clearKey: string): Promise<AuthenticatedKey | null> {
    const hash = hashApiKey(clearKey);
    const now = Date.now();
    const cached = this.cache.get(hash);
    let key = cached && cached.cachedUntil > now ? cached.key : undefined;
    if (!key) {
      const row = await this.apiKeys.findActiveByHash(hash);
      if (!row) {
        this.cache.delete(hash);
        return null;
      }
      key = {
        keyId: row.id,
        organisationId: row.organisationId,
        name: row.name,
        scopes: row.scopes,
        expiresAt: row.expiresAt,
      };
      this.cache.set(hash, { key, cachedUntil: now + KEY_CACHE_TTL_MS });
    }
    if (key.expiresAt !== null && key.expiresAt.getTime() <= now) return null;
    this.recordUse(key, now);
    return key;
  }

  /**
   * Queues the key's lastUsedAt at most once a minute; the queue writes it unawaited, as bookkeeping (see
   * BookkeepingWrites): a request never waits for it, and a failed write is logged and tried again.
   */
  private recordUse(key: AuthenticatedKey, now: number): void {
    const written = this.usesWritten.get(key.keyId);
    if (written !== undefined && now - written < LAST_USED_PRECISION_MS) return;
    if (this.usesWritten.size >= MAX_REMEMBERED_USES) this.usesWritten.clear();
    this.usesWritten.set(key.keyId, now);
    this.uses.add(key.keyId, { organisationId: key.organisationId, id: key.keyId, usedAt: new Date(now) });
  }
}

/** Distinct known scopes in their canonical order; an unknown or missing one is refused, naming `scopes`. */
function canonicalScopes(scopes: readonly string[]): ApiScope[] {
  const unknown = scopes.filter((scope) => !isApiScope(scope));
  if (unknown.length > 0 || scopes.length === 0) {
    throw ValidationError.forField(
      'scopes',
      `Scopes are one or more of ${API_SCOPES.join(', ')}` +
        (unknown.length > 0 ? `; unknown: ${unknown.map((scope) => JSON.stringify(scope)).join(', ')}` : ''),
    );
  }
  return API_SCOPES.filter((scope) => scopes.includes(scope));
}

/** A key as the activity log names it: its name and id, or its id. */
function keyTarget(id: string, name: string | null): string {
  return name === null ? id : `${name} (${id})`;
}
