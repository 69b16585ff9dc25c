import type { Actor, WriteContext } from '../../database/write-context';
import type { IdentifiedRequest } from '../../http/request-log';
import type { ConsoleRequest } from './console-request';

/** The signed-in person of a console request, from their address, as the actor of what they change. */
export function consoleActor(request: ConsoleRequest): Extract<Actor, { type: 'console' }> {
  if (!request.viewer) throw new Error('consoleActor needs a signed-in console request');
  const { userId, email } = request.viewer;
  return { type: 'console', id: userId, email, clientAddress: request.clientAddress ?? null };
}

/**
 * The write context of a change made on a console page, for the services the API's routes call with @Write():
 * the signed-in person as actor (the events name them by id, the activity log by email), the request's
 * X-Request-Id, no trace to continue.
 */
export function consoleWrite(request: ConsoleRequest): WriteContext {
  return {
    origin: {
      actor: consoleActor(request),
      requestId: (request as ConsoleRequest & IdentifiedRequest).id ?? null,
      traceparent: null,
    },
  };
}
