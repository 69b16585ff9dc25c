import { randomUUID } from 'node:crypto';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { requestTransactionOf, WriteContext } from '../database/write-context';
import type { IdentifiedRequest } from '../http/request-log';
import { AuthenticatedRequest } from './request-authenticator';

/**
 * The one way a write handler gets its WriteContext: the authenticated key as actor, the request's
 * X-Request-Id and trace, and the transaction the request runs in already (a keyed POST's), if any.
 */
export const Write = createParamDecorator((_data: unknown, context: ExecutionContext): WriteContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest & IdentifiedRequest>();
  if (!request.auth) throw new Error('Write used on a route that the API key guard does not protect');
  return {
    transaction: requestTransactionOf(request),
    origin: {
      actor: { type: 'api_key', id: request.auth.keyId },
      requestId: request.id,
      // The request's trace, with a span id of its own as the parent of the deliveries' requests.
      traceparent: `00-${request.traceId}-${newSpanId()}-01`,
    },
  };
});

/**
 * 8 random bytes as 16 hex digits, never all zero: a random UUID's last two groups (the variant digit, 8 to b,
 * then 60 random bits), from the entropy randomUUID keeps cached rather than a randomBytes call per request.
 */
function newSpanId(): string {
  const uuid = randomUUID();
  return uuid.slice(19, 23) + uuid.slice(24);
}
