import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { openSecret, sealSecret } from '../../encryption/secret-box';

/**
 * Seals what the console keeps out of reach (an SSO client secret at rest; a flash message or a sign-on's
 * PKCE verifier in a cookie) with the key that seals webhook secrets, bound to a context naming its use.
 */
@Injectable()
export class ConsoleSealer {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  seal(value: string, context: string): Buffer {
    return sealSecret(this.key(), value, context);
  }

  /** The value, or undefined when the sealed bytes were not made by seal() with this key and context. */
  open(sealed: Buffer, context: string): string | undefined {
    try {
      return openSecret(this.key(), sealed, context);
    } catch {
      return undefined;
    }
  }

  private key(): Buffer {
    const key = this.config.webhookSecretKey;
    // loadConfig requires it with DATABASE_URL, and the embedded runtime makes one.
    if (!key) throw new Error('WEBHOOK_SECRET_KEY is not set');
    return key;
  }
}
