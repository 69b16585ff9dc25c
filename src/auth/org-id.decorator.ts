import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AuthenticatedRequest } from './request-authenticator';

/** The organisation of the authenticated key; every tenant-scoped call takes it as its first argument. */
export const OrgId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.auth) throw new Error('OrgId used on a route that the API key guard does not protect');
  return request.auth.organisationId;
});
