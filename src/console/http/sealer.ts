import { Injectable } from '@nestjs/common';
import { ServiceKeys } from '../../encryption/service-keys';

/**
 * Seals what the console keeps out of reach (an SSO client secret at rest; a flash message or a sign-on's
 * PKCE verifier in a cookie) the way the previous release opens it (ServiceKeys.seal), bound to a context naming
 * its use; it opens that and the console's derived key's format. What the previous secret sealed opens until a
 * rotation's grace ends.
 */
@Injectable()
export class ConsoleSealer {
  constructor(private readonly keys: ServiceKeys) {}

  seal(value: string, context: string): Buffer {
    return this.keys.seal(value, context);
  }

  /** The value, or undefined when the sealed bytes were not made by seal() with this key and context. */
  open(sealed: Buffer, context: string): string | undefined {
    try {
      return this.keys.open('console-seals', sealed, context);
    } catch {
      return undefined;
    }
  }
}
