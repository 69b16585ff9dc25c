import { Injectable } from '@nestjs/common';
import { ServiceKeys } from '../encryption/service-keys';

/** Opened secrets kept at most; past it the cache starts over (endpoints are few, this only bounds memory). */
const MAX_OPENED = 10_000;

/** The secrets of an endpoint as stored: sealed, and the previous one with the end of its overlap. */
export interface SealedSecrets {
  secretSealed: Buffer | null;
  previousSecretSealed: Buffer | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * Seals endpoint secrets the way the previous release opens them (ServiceKeys.seal), and opens them, in memory
 * only, to sign a delivery (also those sealed under the previous secret while a rotation's grace lasts, and those
 * sealed with the key derived for them).
 * An opened secret is kept by the sealed bytes it came from (unique per sealing: a random IV), so the
 * dispatcher opens each secret once instead of once per delivery, and a rotation moves the current secret's
 * bytes to the previous one without opening it again.
 */
@Injectable()
export class WebhookSecrets {
  private readonly opened = new Map<string, string>();

  constructor(private readonly keys: ServiceKeys) {}

  seal(secret: string, endpointId: string): Buffer {
    return this.keys.seal(secret, endpointId);
  }

  /** The HMAC key of an endpoint: its secret, or "" when it has none. */
  signingKey(sealed: Buffer | null, endpointId: string): string {
    if (sealed === null) return '';
    const cacheKey = `${endpointId}:${sealed.toString('base64')}`;
    const cached = this.opened.get(cacheKey);
    if (cached !== undefined) return cached;
    const secret = this.keys.open('webhook-secrets', sealed, endpointId);
    if (this.opened.size >= MAX_OPENED) this.opened.clear();
    this.opened.set(cacheKey, secret);
    return secret;
  }

  /**
   * The keys a delivery is signed with at `now`: the current secret, then the previous one while its overlap
   * lasts (never after it ends, whether or not retention has erased it yet).
   */
  signingKeys(endpointId: string, secrets: SealedSecrets, now: Date): string[] {
    const keys = [this.signingKey(secrets.secretSealed, endpointId)];
    if (secrets.previousSecretExpiresAt !== null && secrets.previousSecretExpiresAt > now) {
      keys.push(this.signingKey(secrets.previousSecretSealed, endpointId));
    }
    return keys;
  }
}
