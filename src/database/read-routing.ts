import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DataSource } from 'typeorm';
import { readingOn } from './read-route';
import { Replicas } from './replicas';

/** The header of read-your-writes: a write's log position, sent back on the GETs that must see it. */
export const CONSISTENCY_TOKEN_HEADER = 'X-Consistency-Token';

/**
 * Express middleware, used when DATABASE_REPLICA_URLS names replicas (useReadReplicas): under `prefix`, a GET
 * runs (guards, handler and all they start) reading on the replica Replicas chooses, unless its path starts
 * with one of `primaryPaths`; every other request's response carries the primary's log position, read once its
 * writes have committed. Middleware rather than a Nest interceptor: a global interceptor puts every route
 * through Nest's interceptor pipeline (RxJS and an async resource per request), which measured nearly half
 * again the CPU of a GET by id (docs/performance.md). The API-key lookup stays on the primary (onPrimary).
 */
export function readRouting(
  replicas: Replicas,
  primary: DataSource,
  prefix: string,
  primaryPaths: string[],
): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    if (!request.originalUrl.startsWith(prefix)) return next();
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (primaryPaths.some((path) => request.originalUrl.startsWith(path))) return next();
      const replica = replicas.readManager(request.get(CONSISTENCY_TOKEN_HEADER));
      return replica ? readingOn(replica, next) : next();
    }
    stampBeforeEnd(response, primary);
    next();
  };
}

/**
 * Holds back the end of `response` until X-Consistency-Token is set to the primary's insert position, read after
 * the request's commits (a handler commits before its response ends): a replica that has replayed that far has
 * every one of them (pg_current_wal_lsn could still be short of a commit record). Left out when the primary does
 * not answer, or when a streamed response has sent its headers already; the request's own outcome stands.
 */
function stampBeforeEnd(response: Response, primary: DataSource): void {
  const end = response.end.bind(response) as (...args: unknown[]) => Response;
  response.end = ((...args: unknown[]) => {
    primary
      .query<Array<{ position: string }>>(`SELECT pg_current_wal_insert_lsn()::text AS position`)
      .then(
        ([{ position }]) => {
          if (!response.headersSent) response.setHeader(CONSISTENCY_TOKEN_HEADER, position);
        },
        () => undefined,
      )
      .finally(() => end(...args));
    return response;
  }) as Response['end'];
}
