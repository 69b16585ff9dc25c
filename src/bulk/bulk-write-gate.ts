import { Injectable } from '@nestjs/common';
import pLimit, { Limit } from 'p-limit';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';

/**
 * At most half the pool's connections run bulk write transactions at once; the other bulk requests wait here,
 * in order of arrival. A bulk transaction holds its connection for seconds, most of them the process's own work
 * on its items (validation, planning, events) between statements, so many at once took every pooled connection
 * and the rest of the requests, bulk or not, waited past DATABASE_TIMEOUT_MS for one and answered 503. Waiting
 * here has no such limit, and leaves the other half of the pool to every other request.
 */
@Injectable()
export class BulkWriteGate {
  private readonly limit: Limit;

  constructor(database: Database) {
    this.limit = pLimit(Math.max(1, Math.floor(database.poolSize / 2)));
  }

  /** `work` once a bulk write may start; at once inside the request's transaction, whose connection is held already. */
  run<T>(write: WriteContext, work: () => Promise<T>): Promise<T> {
    return write.transaction ? work() : this.limit(work);
  }
}
