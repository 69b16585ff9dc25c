import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError, UnauthorizedError } from '../errors/errors';
import { IS_PUBLIC } from './public.decorator';
import { AuthenticatedRequest, RequestAuthenticator } from './request-authenticator';
import { API_SCOPES, requiredScope, SCOPE_RULE, ScopeRule } from './scopes';

/**
 * Without a declared rule a route is closed to every key short of one with all scopes; scopes.spec.ts fails
 * for such a route of the application, so only test probes rely on this.
 */
const UNDECLARED: ScopeRule[] = API_SCOPES.map((scope) => ({ get: scope, change: scope }));

/**
 * Every route needs a valid, unrevoked, unexpired key unless it is marked @Public() (401), and the scope its
 * @RequiresScope() names for the request's method (403). Both come before the body is read (RequestInputGuard).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: RequestAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = await this.authenticator.resolve(request);
    if (!key) throw new UnauthorizedError();
    const declared = this.reflector.getAllAndOverride<ScopeRule | undefined>(SCOPE_RULE, targets);
    for (const rule of declared ? [declared] : UNDECLARED) {
      const scope = requiredScope(rule, request.method);
      if (scope !== null && !key.scopes.includes(scope)) throw new ForbiddenError(scope);
    }
    return true;
  }
}
