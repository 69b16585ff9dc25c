import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Where the transaction a whole request runs in is left on the request object. */
const REQUEST_TRANSACTION = Symbol('requestTransaction');

type WithTransaction = { [REQUEST_TRANSACTION]?: EntityManager };

/**
 * Called by the IdempotencyInterceptor only: a POST with an Idempotency-Key runs in the transaction that
 * claims the key and keeps the response, so the route's writes commit with them or not at all.
 */
export function setRequestTransaction(request: object, manager: EntityManager): void {
  (request as WithTransaction)[REQUEST_TRANSACTION] = manager;
}

/**
 * The one way a route learns that its request runs in a transaction already (a keyed POST): the manager of
 * that transaction, else undefined. Every POST handler takes it and passes it to its service, which passes it
 * to `Database.transaction` as the outer transaction and to the repositories it calls outside one.
 */
export const RequestTransaction = createParamDecorator(
  (_data: unknown, context: ExecutionContext): EntityManager | undefined =>
    context.switchToHttp().getRequest<WithTransaction>()[REQUEST_TRANSACTION],
);
