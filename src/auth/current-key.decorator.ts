import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedKey } from './api-keys.service';
import { AuthenticatedRequest } from './request-authenticator';

/** The authenticated key of the request: its id, organisation, name, scopes and expiry. */
export const CurrentKey = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedKey => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.auth) throw new Error('CurrentKey used on a route that the API key guard does not protect');
  return request.auth;
});
