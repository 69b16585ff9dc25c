import type { EntityManager } from 'typeorm';

/**
 * Who made a change, as every event says: an API key (by its id), the command line, the retention job, or a
 * person in the console (by their console user's id; only the test event a console page sends says so).
 */
export type Actor =
  { type: 'api_key'; id: string } | { type: 'cli' } | { type: 'retention' } | { type: 'console'; id: string };

/** Where a change comes from: recorded with each event it causes (actor, requestId, traceparent). */
export interface ChangeOrigin {
  actor: Actor;
  /** The request's X-Request-Id; null from the command line. */
  requestId: string | null;
  /** A W3C traceparent of the request's trace, sent on the deliveries of its events; null from the command line. */
  traceparent: string | null;
}

/**
 * What every write handler hands its service: the origin of its changes, and the transaction the request
 * runs in already (a keyed POST's, see setRequestTransaction) or undefined; route handlers get it from
 * `@Write()` (auth/write.decorator.ts). Services pass it to
 * `Database.transaction`, which remembers the origin for the events published in that transaction.
 */
export interface WriteContext {
  transaction?: EntityManager;
  origin: ChangeOrigin;
}

/** The write context of a command-line change: its own transactions, the CLI as actor, no request. */
export function cliWrite(): WriteContext {
  return { origin: { actor: { type: 'cli' }, requestId: null, traceparent: null } };
}

/** The write context of the retention job's changes (leavers' erasure): in the job's transaction, no request. */
export function retentionWrite(transaction: EntityManager): WriteContext {
  return { transaction, origin: { actor: { type: 'retention' }, requestId: null, traceparent: null } };
}

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

/** The transaction the request runs in already (see setRequestTransaction), else undefined. */
export function requestTransactionOf(request: object): EntityManager | undefined {
  return (request as WithTransaction)[REQUEST_TRANSACTION];
}
