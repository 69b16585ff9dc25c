import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { AuthenticatedRequest, RequestAuthenticator } from '../auth/request-authenticator';
import { APP_CONFIG, AppConfig } from '../config/config';
import { RateLimitedError } from '../common/errors';
import { RATE_LIMIT_STORE } from './rate-limit.tokens';
import { RateLimitStore, WindowHit } from './rate-limit.store';
import { SKIP_RATE_LIMIT } from './skip-rate-limit.decorator';

const WINDOW_MS = 60_000;

/**
 * A fixed one-minute window per API key, or per client address when the request has no valid key.
 * Runs before the key guard so that requests with bad keys are limited too.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger(RateLimitGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const auth = await this.authenticator.resolve(request);
    const hit = await this.countHit(auth ? `key:${auth.keyId}` : `ip:${request.ip}`);
    if (!hit) return true;

    const limit = this.config.rateLimitPerMinute;
    const resetSeconds = Math.max(1, Math.ceil(hit.resetInMs / 1000));
    response.setHeader('X-RateLimit-Limit', limit);
    response.setHeader('X-RateLimit-Remaining', Math.max(0, limit - hit.count));
    response.setHeader('X-RateLimit-Reset', resetSeconds);
    if (hit.count > limit) {
      response.setHeader('Retry-After', resetSeconds);
      throw new RateLimitedError();
    }
    return true;
  }

  /** A counter store that is down must not take the API down with it: the request passes, and it is logged. */
  private async countHit(subject: string): Promise<WindowHit | null> {
    try {
      return await this.store.hit(subject, WINDOW_MS);
    } catch (error) {
      this.logger.warn(`Rate-limit store unavailable, request not counted: ${(error as Error).message}`);
      return null;
    }
  }
}
