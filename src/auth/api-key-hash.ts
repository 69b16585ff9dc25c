import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'sk_';

/** A new clear key: 32 random bytes, base64url, behind a recognisable prefix. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(clearKey: string): string {
  return createHash('sha256').update(clearKey).digest('hex');
}
