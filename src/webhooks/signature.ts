import { createHmac } from 'node:crypto';

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes, keyed with the endpoint's secret or "" when it has none. */
export function signatureOf(body: Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
