import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { openSecret, sealSecret } from './secret-box';

/** Opened secrets kept at most; past it the cache starts over (endpoints are few, this only bounds memory). */
const MAX_OPENED = 10_000;

/**
 * Seals endpoint secrets with WEBHOOK_SECRET_KEY and opens them, in memory only, to sign a delivery.
 * An opened secret is kept per endpoint with the sealed bytes it came from, so the dispatcher opens each
 * endpoint's secret once instead of once per delivery; different sealed bytes are opened again.
 */
@Injectable()
export class WebhookSecrets {
  private readonly opened = new Map<string, { sealed: Buffer; secret: string }>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  seal(secret: string, endpointId: string): Buffer {
    return sealSecret(this.key(), secret, endpointId);
  }

  /** The HMAC key of an endpoint: its secret, or "" when it has none. */
  signingKey(sealed: Buffer | null, endpointId: string): string {
    if (sealed === null) return '';
    const cached = this.opened.get(endpointId);
    if (cached?.sealed.equals(sealed)) return cached.secret;
    const secret = openSecret(this.key(), sealed, endpointId);
    if (this.opened.size >= MAX_OPENED) this.opened.clear();
    this.opened.set(endpointId, { sealed: Buffer.from(sealed), secret });
    return secret;
  }

  private key(): Buffer {
    // loadConfig and openRuntime guarantee a key for the server; its absence is a wiring error.
    if (!this.config.webhookSecretKey) throw new Error('WEBHOOK_SECRET_KEY is not configured');
    return this.config.webhookSecretKey;
  }
}
