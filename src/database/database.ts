import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ClientBase } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { replicaManager } from './read-route';
import type { ChangeOrigin, WriteContext } from './write-context';

/** A statement and its parameters, for pg as TypeORM's `query` takes them. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** A statement sent with COMMIT, and who is told its rows once the transaction has committed. */
interface ClosingStatement {
  statement: Statement;
  committed?: (rows: unknown[]) => void;
}

/** What the service knows of a transaction it opened and is still running. */
interface RunningTransaction {
  /** Where its changes come from, for the events published in it. */
  origin?: ChangeOrigin;
  /** Sent with its COMMIT (sendWithCommit), in order. */
  closing: ClosingStatement[];
  /** Run once it commits. */
  committed: Set<() => void>;
}

/**
 * The one way features reach the database. Being in a transaction means holding its EntityManager: a
 * repository queries with the manager its caller passes, else with the pool. Transactions are a TypeORM
 * QueryRunner's (startTransaction, commitTransaction); this class remembers which managers belong to one it
 * opened and is still running, where its changes come from (its origin), what to send with its COMMIT, and
 * what to do once it commits.
 */
@Injectable()
export class Database {
  private readonly running = new WeakMap<EntityManager, RunningTransaction>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The most connections this process opens to the primary at once (its pool's size). */
  get poolSize(): number {
    return (this.dataSource.options.extra as { max: number }).max;
  }

  /**
   * The manager a query runs with: the caller's transaction, else the pool of the replica the request reads on
   * (a GET under /api/v1 with DATABASE_REPLICA_URLS, read-routing.ts), else the primary's pool.
   */
  manager(transaction?: EntityManager): EntityManager {
    return transaction ?? replicaManager() ?? this.dataSource.manager;
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
      const joined = this.running.get(outer);
      if (!joined) throw new Error('The outer transaction has ended');
      if (write?.origin) joined.origin = write.origin;
      return work(outer);
    }
    const transaction: RunningTransaction = { origin: write?.origin, closing: [], committed: new Set() };
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      this.running.set(runner.manager, transaction);
      const result = await work(runner.manager);
      const answers = await this.commit(runner, transaction.closing);
      transaction.closing.forEach(({ committed }, index) => committed?.(answers[index]));
      for (const callback of transaction.committed) callback();
      return result;
    } catch (error) {
      // As TypeORM's own transactions: a failed ROLLBACK goes unreported, the request has failed already. It
      // refuses, sending nothing, when the COMMIT ended the transaction already (a closing statement failed).
      await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      this.running.delete(runner.manager);
      await runner.release();
    }
  }

  /**
   * Runs `work` in a savepoint of the running transaction of `manager`: when it throws, what it wrote is undone
   * and the transaction goes on (one failing item of a bulk request changes nothing and stops no other item).
   */
  async savepoint<T>(manager: EntityManager, work: () => Promise<T>): Promise<T> {
    if (!this.running.has(manager)) throw new Error('A savepoint needs a running transaction');
    await manager.query('SAVEPOINT item');
    try {
      const result = await work();
      await manager.query('RELEASE SAVEPOINT item');
      return result;
    } catch (error) {
      await manager.query('ROLLBACK TO SAVEPOINT item');
      throw error;
    }
  }

  /**
   * COMMIT, with the `closing` statements sent just before it and not waited for (the pool pipelines): one round
   * trip. A closing statement that fails leaves the transaction failed, so the COMMIT rolls it back; its error
   * is thrown once the COMMIT has answered. Answers the rows of each closing statement, in order.
   */
  private async commit(runner: QueryRunner, closing: ClosingStatement[]): Promise<unknown[][]> {
    const connection = (await runner.connect()) as ClientBase;
    const sent = closing.map(({ statement: { text, values } }) =>
      connection.query(text, values).then((result) => result.rows as unknown[]),
    );
    const answers = await Promise.allSettled([...sent, runner.commitTransaction()]);
    const failed = answers.find((answer) => answer.status === 'rejected');
    if (failed) throw failed.reason;
    return answers.slice(0, closing.length).map((answer) => (answer as PromiseFulfilledResult<unknown[]>).value);
  }

  /** Whether `manager` belongs to a transaction of `transaction()` that is still running. */
  inTransaction(manager: EntityManager): boolean {
    return this.running.has(manager);
  }

  /** The origin of the changes made in the running transaction of `manager`, when its opener gave one. */
  originOf(manager: EntityManager): ChangeOrigin | undefined {
    return this.running.get(manager)?.origin;
  }

  /**
   * Sends `statement` in the running transaction of `manager` together with its COMMIT, one round trip for
   * both: when it fails the transaction rolls back and `transaction()` throws; once the transaction has
   * committed, `committed` gets its rows, before the afterCommit callbacks run (so it may still register one
   * with `afterCommit(manager, …)`, run once however often it is registered). Statements go in the order
   * given, after all the work, savepoints released or rolled back: a statement held inside a savepoint that
   * rolls back is sent all the same, so hold none there.
   */
  sendWithCommit<R>(manager: EntityManager, statement: Statement, committed?: (rows: R[]) => void): void {
    const transaction = this.running.get(manager);
    if (!transaction) throw new Error('A statement sent with COMMIT needs a running transaction');
    transaction.closing.push({ statement, committed: committed as ClosingStatement['committed'] });
  }

  /**
   * Runs `callback` once the transaction of `manager` commits (once, however often it is registered), never
   * when it rolls back; at once when `manager` is not in a transaction (its writes are committed already).
   */
  afterCommit(manager: EntityManager, callback: () => void): void {
    const transaction = this.running.get(manager);
    if (transaction) transaction.committed.add(callback);
    else callback();
  }
}
