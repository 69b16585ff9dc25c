import { Client } from 'pg';

/** What pg's client says when `query_timeout` passes without an answer. */
const READ_TIMEOUT = 'Query read timeout';

/**
 * pg's Client, except that a query that times out on the client side (the server never answered: frozen,
 * partitioned) closes its connection. Left open, the connection would go back to the pool with the unanswered
 * query still ahead of anything sent on it: the ROLLBACK that follows, and the next request's queries, would
 * each wait out a timeout of their own. Closed, they fail at once and the pool makes a new connection.
 */
export class DiscardingClient extends Client {
  override query(...args: unknown[]): never {
    const callback = args.findIndex((arg) => typeof arg === 'function');
    if (callback !== -1) {
      const answer = args[callback] as (error: Error | undefined, ...rest: unknown[]) => void;
      args[callback] = (error: Error | undefined, ...rest: unknown[]) => {
        this.discardAfter(error);
        answer(error, ...rest);
      };
    }
    const result = (super.query as (...queryArgs: unknown[]) => unknown)(...args);
    if (result instanceof Promise) result.catch((error: Error) => this.discardAfter(error));
    return result as never;
  }

  private discardAfter(error: Error | undefined): void {
    // end() refuses every later query at once and makes the pool drop this client when it is released.
    if (error?.message === READ_TIMEOUT) this.end().catch(() => undefined);
  }
}
