import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Release 4's format, sealed with the service secret itself: the one release 5 writes, so release 4 opens it. */
const VERSION_RAW_KEY = 1;
/**
 * Sealed with a derived key, named by its id (service-keys.ts), so the key that opens it is known at once: read
 * since release 5, written from release 6 (docs/adr/0013).
 */
const VERSION_KEY_ID = 2;
export const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals a secret kept at rest (a webhook endpoint's signing secret, an organisation's OpenID Connect client
 * secret) with AES-256-GCM: version byte, the key's id (version 2), IV, auth tag, ciphertext. `context` (the row
 * it belongs to) is bound as additional data, so a sealed secret copied to another row fails to open. Without a
 * key id it writes release 4's format (version 1).
 */
export function sealSecret(key: Buffer, secret: string, context: string, keyId?: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const header = keyId ? Buffer.concat([Buffer.of(VERSION_KEY_ID), keyId]) : Buffer.of(VERSION_RAW_KEY);
  return Buffer.concat([header, iv, cipher.getAuthTag(), ciphertext]);
}

/** The id of the key that sealed it (version 2), or null for release 4's format; throws on an unknown format. */
export function sealedKeyId(sealed: Buffer): Buffer | null {
  if (sealed[0] === VERSION_RAW_KEY && sealed.length >= 1 + IV_BYTES + TAG_BYTES) return null;
  if (sealed[0] === VERSION_KEY_ID && sealed.length >= 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES) {
    return sealed.subarray(1, 1 + KEY_ID_BYTES);
  }
  throw new Error('Sealed secret has an unknown format');
}

/** Opens what sealSecret made; throws when the key, the context or any byte is not the one it was sealed with. */
export function openSecret(key: Buffer, sealed: Buffer, context: string): string {
  const start = sealedKeyId(sealed) === null ? 1 : 1 + KEY_ID_BYTES;
  const iv = sealed.subarray(start, start + IV_BYTES);
  const tag = sealed.subarray(start + IV_BYTES, start + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed.subarray(start + IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
