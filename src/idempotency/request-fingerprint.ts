import { createHmac, hkdfSync } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';

/** JSON with every object's keys sorted, so two bodies that are the same JSON value read the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const members = Object.keys(object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The HKDF label of the fingerprint key: a key of its own, never the one that encrypts webhook secrets. */
const FINGERPRINT_KEY_INFO = 'skills-service idempotency request fingerprint v1';

/** The fingerprint key derived from WEBHOOK_SECRET_KEY. */
export function fingerprintKey(webhookSecretKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', webhookSecretKey, Buffer.alloc(0), FINGERPRINT_KEY_INFO, 32));
}

/**
 * What makes two requests "the same" for an Idempotency-Key: method, path and body as a JSON value. An HMAC
 * rather than a plain hash: a body may hold a webhook secret, and the fingerprint is kept 24 h, so a copy of
 * the database must not let anyone test guesses of it.
 */
export function requestFingerprint(key: Buffer, method: string, path: string, body: unknown): string {
  return createHmac('sha256', key)
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** requestFingerprint with this server's key. */
@Injectable()
export class RequestFingerprints {
  private key?: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  of(method: string, path: string, body: unknown): string {
    this.key ??= fingerprintKey(this.secretKey());
    return requestFingerprint(this.key, method, path, body);
  }

  private secretKey(): Buffer {
    // loadConfig and openRuntime guarantee a key for the server; its absence is a wiring error.
    if (!this.config.webhookSecretKey) throw new Error('WEBHOOK_SECRET_KEY is not configured');
    return this.config.webhookSecretKey;
  }
}
