import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { AuthenticatedRequest, RequestAuthenticator } from '../auth/request-authenticator';
import { isDatabaseUnavailable } from '../database/database-unavailable';
import { RateLimitedError } from '../errors/errors';
import { Metrics } from '../metrics/metrics';

/**
 * Throttler's guard, counting per API key, or per client address when the request has no valid key; it
 * runs before the key guard, so requests with bad keys are limited too. X-RateLimit-* go on every
 * response it sees, the 429 included.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
    private readonly metrics: Metrics,
  ) {
    super(options, storage, reflector);
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const auth = await this.authenticator.resolve(request as unknown as AuthenticatedRequest).catch((error) => {
      // The key cannot be checked now: count by address; the key guard answers 503.
      if (isDatabaseUnavailable(error)) return null;
      throw error;
    });
    return auth ? `key:${auth.keyId}` : `ip:${await super.getTracker(request)}`;
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    { limit, timeToExpire }: ThrottlerLimitDetail,
  ): Promise<void> {
    this.metrics.rateLimited();
    const { res } = this.getRequestResponse(context);
    this.setResponseHeader(res, `${this.headerPrefix}-Limit`, limit);
    this.setResponseHeader(res, `${this.headerPrefix}-Remaining`, 0);
    this.setResponseHeader(res, `${this.headerPrefix}-Reset`, timeToExpire);
    throw new RateLimitedError();
  }
}
