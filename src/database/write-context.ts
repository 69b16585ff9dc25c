import type { EntityManager } from 'typeorm';

/**
 * Who made a change: an API key (by its id), the command line, the retention job, the service's first start (its
 * first key and admin), or a person in the console (by their console user's id, with the email and address the
 * activity log shows; events carry the id only, see eventActor), or, for a sign-in that failed, whoever claimed an
 * email. The one type of "who did it" for the events and the activity log alike.
 */
export type Actor =
  | { type: 'api_key'; id: string }
  | { type: 'cli' }
  | { type: 'retention' }
  | { type: 'first_start' }
  | { type: 'console'; id: string; email: string; clientAddress: string | null }
  | { type: 'visitor'; claimed: string; clientAddress: string | null };

/** The actor as an event's body says it: never a person's email or address, which the feed keeps for years. */
export type EventActor =
  { type: 'api_key'; id: string } | { type: 'cli' } | { type: 'retention' } | { type: 'console'; id: string };

export function eventActor(actor: Actor): EventActor {
  if (actor.type === 'console') return { type: 'console', id: actor.id };
  if (actor.type === 'visitor' || actor.type === 'first_start') {
    throw new Error(`The actor ${actor.type} makes no change that an event records`);
  }
  return actor;
}

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
