import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * HMAC pads a key shorter than the hash's block (64 bytes for SHA-256) with zero bytes (RFC 2104), so 64 zero
 * bytes are the same key as the empty one, which the standardwebhooks library refuses.
 */
const EMPTY_KEY_EQUIVALENT = Buffer.alloc(64);

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes, keyed with the endpoint's secret or "" when it has none. */
export function signatureOf(body: Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * The Standard Webhooks `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` per secret,
 * space-separated, keyed with each secret's UTF-8 bytes ("" when the endpoint has none).
 */
export function standardSignature(id: string, timestamp: Date, body: Buffer, secrets: readonly string[]): string {
  return secrets
    .map((secret) => {
      const key = secret === '' ? EMPTY_KEY_EQUIVALENT : Buffer.from(secret, 'utf8');
      return new Webhook(key, { format: 'raw' }).sign(id, timestamp, body);
    })
    .join(' ');
}
