import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

const requestTransaction = new AsyncLocalStorage<EntityManager>();

/**
 * The one way features reach the database. A repository queries with the EntityManager of the
 * transaction its caller passes; without one, with the transaction the whole request runs in when it
 * has one (a POST with an Idempotency-Key, whose stored response must commit with the change), else
 * with the pool.
 */
@Injectable()
export class Database {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The manager a query runs with: the caller's transaction, else the request's, else the pool. */
  manager(transaction?: EntityManager): EntityManager {
    return transaction ?? requestTransaction.getStore() ?? this.dataSource.manager;
  }

  /**
   * Runs `work` in a transaction. Inside the request's transaction, `work` joins it without a savepoint of
   * its own: whoever runs the request transaction undoes a failed `work` (the Idempotency-Key interceptor
   * runs the route in one savepoint), and a savepoint per service call would be two more round trips.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const request = requestTransaction.getStore();
    return request ? work(request) : this.dataSource.manager.transaction(work);
  }

  /**
   * Runs `work` in a new transaction that is the request's from then on: every query and transaction of
   * the request made inside `work` joins it. Commits when `work` resolves, rolls back when it throws.
   */
  requestTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => requestTransaction.run(manager, () => work(manager)));
  }
}
