import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import { catchError, concatMap, from, Observable, throwError } from 'rxjs';
import { DataSource } from 'typeorm';
import { readingOn } from './read-route';
import { Replicas } from './replicas';

/** The header of read-your-writes: a write's log position, sent back on the GETs that must see it. */
export const CONSISTENCY_TOKEN_HEADER = 'X-Consistency-Token';

/**
 * Bound to every route when DATABASE_REPLICA_URLS names replicas (useReadReplicas): under `prefix`, a GET's
 * handler (after the guards, whose key lookups stay on the primary) reads on the replica Replicas chooses,
 * unless its path starts with one of `primaryPaths`; every other request's response carries the primary's log
 * position once its writes have committed.
 */
@Injectable()
export class ReadRoutingInterceptor implements NestInterceptor {
  constructor(
    private readonly replicas: Replicas,
    @InjectDataSource() private readonly primary: DataSource,
    private readonly prefix: string,
    private readonly primaryPaths: string[],
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.originalUrl.startsWith(this.prefix)) return next.handle();
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (this.primaryPaths.some((path) => request.originalUrl.startsWith(path))) return next.handle();
      const replica = this.replicas.readManager(request.get(CONSISTENCY_TOKEN_HEADER));
      if (!replica) return next.handle();
      return new Observable((subscriber) => readingOn(replica, () => next.handle().subscribe(subscriber)));
    }
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      concatMap(async (body: unknown) => {
        await this.stamp(response);
        return body;
      }),
      catchError((error: unknown) => from(this.stamp(response)).pipe(concatMap(() => throwError(() => error)))),
    );
  }

  /**
   * Sets X-Consistency-Token to the primary's insert position, read after the request's commits: a replica that
   * has replayed that far has every one of them (pg_current_wal_lsn could still be short of a commit record).
   * Left out when the primary does not answer; the request's own outcome stands.
   */
  private async stamp(response: Response): Promise<void> {
    try {
      const [{ position }] = await this.primary.query<Array<{ position: string }>>(
        `SELECT pg_current_wal_insert_lsn()::text AS position`,
      );
      if (!response.headersSent) response.setHeader(CONSISTENCY_TOKEN_HEADER, position);
    } catch {
      // The response goes without a token: the client's next reads may see the replica's older state.
    }
  }
}
