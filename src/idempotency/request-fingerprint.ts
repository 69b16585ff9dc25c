import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ServiceKeys } from '../encryption/service-keys';

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

/** A request's fingerprint, and whether a kept fingerprint is of the same request. */
export interface RequestIdentity {
  fingerprint: string;
  sameAs(keptFingerprint: string): boolean;
}

/** requestFingerprint with this server's key (derived from the service secret, ServiceKeys). */
@Injectable()
export class RequestFingerprints {
  constructor(private readonly keys: ServiceKeys) {}

  /**
   * Keeps the fingerprint under the current secret; one kept under the previous secret still matches while a
   * rotation's grace lasts, so a retry across the rotation is replayed rather than a 422.
   */
  of(method: string, path: string, body: unknown): RequestIdentity {
    const fingerprint = requestFingerprint(this.keys.current('request-fingerprints'), method, path, body);
    return {
      fingerprint,
      sameAs: (kept) =>
        kept === fingerprint ||
        this.keys
          .accepted('request-fingerprints')
          .slice(1)
          .some((key) => requestFingerprint(key, method, path, body) === kept),
    };
  }
}
