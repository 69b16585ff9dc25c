import type { EntityManager } from 'typeorm';
import type { WriteContext } from '../../database/write-context';
import type { IdentifiedRequest } from '../../http/request-log';
import { ConsoleRequest } from './console-request';

/**
 * The write context of a change made on a console page, for the services the API's routes call with @Write():
 * the signed-in person as actor, the request's X-Request-Id, no trace to continue, and `transaction` if the
 * page runs the change in one of its own (to record it in the activity log with it).
 */
export function consoleWrite(request: ConsoleRequest, transaction?: EntityManager): WriteContext {
  if (!request.viewer) throw new Error('consoleWrite needs a signed-in console request');
  return {
    transaction,
    origin: {
      actor: { type: 'console', id: request.viewer.userId },
      requestId: (request as ConsoleRequest & IdentifiedRequest).id ?? null,
      traceparent: null,
    },
  };
}
