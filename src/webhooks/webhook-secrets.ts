import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { openSecret, sealSecret } from './secret-box';

/** Seals endpoint secrets with WEBHOOK_SECRET_KEY and opens them, in memory only, to sign a delivery. */
@Injectable()
export class WebhookSecrets {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  seal(secret: string, endpointId: string): Buffer {
    return sealSecret(this.key(), secret, endpointId);
  }

  /** The HMAC key of an endpoint: its secret, or "" when it has none. */
  signingKey(sealed: Buffer | null, endpointId: string): string {
    return sealed === null ? '' : openSecret(this.key(), sealed, endpointId);
  }

  private key(): Buffer {
    // loadConfig and openRuntime guarantee a key for the server; its absence is a wiring error.
    if (!this.config.webhookSecretKey) throw new Error('WEBHOOK_SECRET_KEY is not configured');
    return this.config.webhookSecretKey;
  }
}
