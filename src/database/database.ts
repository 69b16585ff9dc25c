import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ChangeOrigin, WriteContext } from './write-context';

/**
 * The one way features reach the database. Being in a transaction means holding its EntityManager: a
 * repository queries with the manager its caller passes, else with the pool. Transactions are TypeORM's
 * (`DataSource.transaction`); this class only remembers which managers belong to a transaction it opened
 * and is still running, what to do once each commits, and where its changes come from (its origin).
 */
@Injectable()
export class Database {
  /** The managers of the transactions running now, with the callbacks to run once each commits. */
  private readonly running = new WeakMap<EntityManager, Set<() => void>>();
  /** The origin of each transaction's changes, for the events published in it. */
  private readonly origins = new WeakMap<EntityManager, ChangeOrigin>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The manager a query runs with: the caller's transaction, else the pool. */
  manager(transaction?: EntityManager): EntityManager {
    return transaction ?? this.dataSource.manager;
  }

  /**
   * Runs `work` in a new transaction, or in `write.transaction` when the caller already runs in one (a keyed
   * POST's, see setRequestTransaction): `work` then joins it without a savepoint, and a failed `work` rolls the
   * whole of it back. `write.origin` is remembered for the transaction (see originOf). Callbacks registered
   * with `afterCommit` run once the outermost transaction has committed.
   */
  async transaction<T>(work: (manager: EntityManager) => Promise<T>, write?: Partial<WriteContext>): Promise<T> {
    const outer = write?.transaction;
    if (outer !== undefined) {
      if (!this.inTransaction(outer)) throw new Error('The outer transaction has ended');
      if (write?.origin) this.origins.set(outer, write.origin);
      return work(outer);
    }
    const committed = new Set<() => void>();
    const result = await this.dataSource.transaction(async (manager) => {
      this.running.set(manager, committed);
      if (write?.origin) this.origins.set(manager, write.origin);
      try {
        return await work(manager);
      } finally {
        this.running.delete(manager);
        this.origins.delete(manager);
      }
    });
    for (const callback of committed) callback();
    return result;
  }

  /** Whether `manager` belongs to a transaction of `transaction()` that is still running. */
  inTransaction(manager: EntityManager): boolean {
    return this.running.has(manager);
  }

  /** The origin of the changes made in the running transaction of `manager`, when its opener gave one. */
  originOf(manager: EntityManager): ChangeOrigin | undefined {
    return this.origins.get(manager);
  }

  /**
   * Runs `callback` once the transaction of `manager` commits (once, however often it is registered), never
   * when it rolls back; at once when `manager` is not in a transaction (its writes are committed already).
   */
  afterCommit(manager: EntityManager, callback: () => void): void {
    const committed = this.running.get(manager);
    if (committed) committed.add(callback);
    else callback();
  }
}
