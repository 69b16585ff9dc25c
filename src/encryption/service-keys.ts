import { hkdfSync } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, ServiceSecret } from '../config/config';
import { KEY_ID_BYTES, openSecret, sealSecret, sealedKeyId } from './secret-box';

/** What a key is for: each purpose has a key of its own, derived from the service secret. */
export type KeyPurpose = 'webhook-secrets' | 'console-seals' | 'list-cursors' | 'request-fingerprints';

/** The purposes that seal (AES-256-GCM) rather than sign; release 5 still seals with the service secret itself. */
export type SealingPurpose = Extract<KeyPurpose, 'webhook-secrets' | 'console-seals'>;

/**
 * HKDF-SHA256 salt and label of each purpose. Cursors and fingerprints keep the labels release 4 derived their
 * keys with, so what it signed stays valid (docs/adr/0003).
 */
const DERIVATIONS: Record<KeyPurpose, { salt: string; info: string }> = {
  'list-cursors': { salt: 'skills-api', info: 'list-cursor-v1' },
  'request-fingerprints': { salt: '', info: 'skills-service idempotency request fingerprint v1' },
  'webhook-secrets': { salt: '', info: 'skills-service webhook secret sealing v1' },
  'console-seals': { salt: '', info: 'skills-service console sealing v1' },
};

/** One secret's key for a purpose, and the id that names it in what it sealed. */
export interface DerivedKey {
  key: Buffer;
  id: Buffer;
}

/** The key of `purpose` derived from `secret`. */
export function deriveKey(secret: Buffer, purpose: KeyPurpose): Buffer {
  const { salt, info } = DERIVATIONS[purpose];
  return Buffer.from(hkdfSync('sha256', secret, salt, info, 32));
}

/** The key of `purpose` derived from `secret` with its id, as the derived-key seal format names it. */
export function deriveKeyWithId(secret: Buffer, purpose: KeyPurpose): DerivedKey {
  const { salt, info } = DERIVATIONS[purpose];
  return {
    key: deriveKey(secret, purpose),
    id: Buffer.from(hkdfSync('sha256', secret, salt, `${info} key id`, KEY_ID_BYTES)),
  };
}

/**
 * The keys of every purpose, derived from the service secret (SERVICE_SECRET_KEY): the current secret signs and
 * seals; during a rotation the previous one (SERVICE_SECRET_KEY_PREVIOUS) is still accepted until
 * SERVICE_SECRET_GRACE_UNTIL, and never after (docs/adr/0003, docs/operations.md "Rotating the service secret").
 */
@Injectable()
export class ServiceKeys {
  private readonly derived = new Map<string, DerivedKey>();

  constructor(@Inject(APP_CONFIG) private readonly config: ServiceSecret) {}

  /** The key that signs or seals for `purpose`. */
  current(purpose: KeyPurpose): Buffer {
    return this.key('current', purpose).key;
  }

  /** The keys accepted for `purpose` at `now`: the current one, then the previous one while the grace lasts. */
  accepted(purpose: KeyPurpose, now = new Date()): Buffer[] {
    return this.acceptedSecrets(now).map((which) => this.key(which, purpose).key);
  }

  /** Whether a rotation's grace is running at `now`: a previous secret is configured and still accepted. */
  rotating(now = new Date()): boolean {
    return this.acceptedSecrets(now).length > 1;
  }

  /**
   * Seals `value`, bound to `context`, the way the previous release opens it: release 4's format, with the current
   * secret itself. The derived key's format (version 2) is only read in release 5 and becomes the written one in
   * release 6 (expand, then contract: docs/adr/0013), so a rollback and a rolling update keep opening every secret.
   */
  seal(value: string, context: string): Buffer {
    return sealSecret(this.secret('current'), value, context);
  }

  /**
   * Opens what seal() made, what release 4 sealed, or what the derived key of `purpose` sealed, with an accepted
   * secret; throws otherwise (another key, context or format, or a previous secret past its grace).
   */
  open(purpose: SealingPurpose, sealed: Buffer, context: string, now = new Date()): string {
    const keyId = sealedKeyId(sealed);
    const secrets = this.acceptedSecrets(now);
    if (keyId === null) {
      return firstOpened(
        secrets.map((which) => this.secret(which)),
        sealed,
        context,
      );
    }
    const which = secrets.find((each) => this.key(each, purpose).id.equals(keyId));
    if (!which) throw new Error('Sealed with a key this instance does not accept');
    return openSecret(this.key(which, purpose).key, sealed, context);
  }

  /** Whether `sealed` is as seal() seals now: release 4's format, opened by the current secret. */
  sealedWithCurrent(sealed: Buffer, context: string): boolean {
    if (sealedKeyId(sealed) !== null) return false;
    try {
      openSecret(this.secret('current'), sealed, context);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * `sealed` as seal() seals it now, or null when it already is: opened with an accepted secret and sealed again;
   * throws when no accepted secret opens it.
   */
  sealedAgain(purpose: SealingPurpose, sealed: Buffer, context: string, now = new Date()): Buffer | null {
    if (this.sealedWithCurrent(sealed, context)) return null;
    return this.seal(this.open(purpose, sealed, context, now), context);
  }

  private acceptedSecrets(now: Date): Array<'current' | 'previous'> {
    const { serviceSecretKeyPrevious, serviceSecretGraceUntil } = this.config;
    const inGrace = serviceSecretKeyPrevious && serviceSecretGraceUntil && now < serviceSecretGraceUntil;
    return inGrace ? ['current', 'previous'] : ['current'];
  }

  private secret(which: 'current' | 'previous'): Buffer {
    const secret = which === 'current' ? this.config.serviceSecretKey : this.config.serviceSecretKeyPrevious;
    // loadConfig and openRuntime guarantee a secret for the server; its absence is a wiring error.
    if (!secret) throw new Error('SERVICE_SECRET_KEY is not configured');
    return secret;
  }

  /** Derived on first use, so processes that sign nothing (some commands) need no secret. */
  private key(which: 'current' | 'previous', purpose: KeyPurpose): DerivedKey {
    const name = `${which} ${purpose}`;
    let derived = this.derived.get(name);
    if (!derived) {
      derived = deriveKeyWithId(this.secret(which), purpose);
      this.derived.set(name, derived);
    }
    return derived;
  }
}

/** The value opened by the first key that opens it (release 4's format names no key). */
function firstOpened(keys: Buffer[], sealed: Buffer, context: string): string {
  let failure: unknown;
  for (const key of keys) {
    try {
      return openSecret(key, sealed, context);
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}
