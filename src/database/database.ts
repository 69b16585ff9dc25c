import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';

const requestTransaction = new AsyncLocalStorage<EntityManager>();

/**
 * A transaction whose first statements travel with its BEGIN and whose last ones with its COMMIT, one message
 * each: two round trips instead of four around what runs in between (on `manager`). PostgreSQL runs the
 * statements of one message in order, each with a snapshot of its own, and skips the rest after an error.
 * Such statements take no parameters: their values are written in with pg's `escapeLiteral`.
 */
export class BatchedTransaction {
  private state: 'new' | 'open' | 'ended' = 'new';

  constructor(
    private readonly runner: QueryRunner,
    private readonly connection: PoolClient,
  ) {}

  get manager(): EntityManager {
    return this.runner.manager;
  }

  /** Sends BEGIN and `statements`; the rows of each statement, in order. */
  async begin<Rows extends object[][]>(...statements: string[]): Promise<Rows> {
    this.open(true);
    await this.runner.broadcaster.broadcast('BeforeTransactionStart');
    const [, ...rows] = await this.send(['BEGIN', ...statements]);
    await this.runner.broadcaster.broadcast('AfterTransactionStart');
    return rows as Rows;
  }

  /** Sends `statements` and COMMIT. After an error in one of them nothing is committed. */
  async commit(...statements: string[]): Promise<void> {
    await this.runner.broadcaster.broadcast('BeforeTransactionCommit');
    await this.send([...statements, 'COMMIT']);
    this.open(false);
    await this.runner.broadcaster.broadcast('AfterTransactionCommit');
  }

  /**
   * Rolls back what is still open. A failed ROLLBACK is left unreported, as TypeORM's own transactions do:
   * the request has failed already, and the pool drops a connection that is no longer queryable.
   */
  async end(): Promise<void> {
    if (this.state !== 'open') return;
    await this.runner.broadcaster.broadcast('BeforeTransactionRollback');
    await this.connection.query('ROLLBACK').catch(() => undefined);
    this.open(false);
    await this.runner.broadcaster.broadcast('AfterTransactionRollback');
  }

  /**
   * TypeORM's flag and events follow the transaction it did not start: DomainEvents refuses to publish without
   * the flag, and WebhookCommitWatcher announces deliveries on the commit event.
   */
  private open(open: boolean): void {
    this.state = open ? 'open' : 'ended';
    (this.runner as { isTransactionActive: boolean }).isTransactionActive = open;
  }

  private async send(statements: string[]): Promise<object[][]> {
    const results = (await this.connection.query(statements.join(';\n'))) as unknown as
      QueryResult<object> | QueryResult<object>[];
    return (Array.isArray(results) ? results : [results]).map((result) => result.rows);
  }
}

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
   * its own: a failed `work` fails the request, whose transaction then rolls back as a whole.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const request = requestTransaction.getStore();
    return request ? work(request) : this.dataSource.manager.transaction(work);
  }

  /**
   * Runs `work` with a batched transaction that is the request's from then on: every query and transaction
   * of the request made inside `work` joins it. `work` opens it with `begin` and commits it with `commit`;
   * whatever `work` leaves open, by returning or by throwing, rolls back.
   */
  async requestTransaction<T>(work: (transaction: BatchedTransaction) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    const transaction = new BatchedTransaction(runner, (await runner.connect()) as PoolClient);
    try {
      return await requestTransaction.run(runner.manager, () => work(transaction));
    } finally {
      await transaction.end();
      await runner.release();
    }
  }
}
