import type { EntityManager } from 'typeorm';

/**
 * Announced when a key is created or revoked with an actor named, so the console's activity log shows every
 * key change, the command line's too, while auth/ knows nothing of the console. Listeners run inside the
 * change's transaction (`manager`): the change and its record commit together.
 */
export const API_KEY_CHANGED = 'api-key.changed';

/** Who changed a key: a console user's email, or "cli"; and from where, when a request says. */
export interface KeyChangeActor {
  who: string;
  clientAddress?: string | null;
}

export interface ApiKeyChanged {
  organisationId: string;
  keyId: string;
  name: string | null;
  change: 'created' | 'revoked';
  actor: KeyChangeActor;
  manager: EntityManager;
}
