import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { TransactionCommitEvent } from 'typeorm/subscriber/event/TransactionCommitEvent';
import { TransactionRollbackEvent } from 'typeorm/subscriber/event/TransactionRollbackEvent';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * Nudges the dispatcher right after a transaction that recorded deliveries commits, so the API call
 * never waits for sending and the rows are visible when the dispatcher looks.
 */
@Injectable()
export class WebhookCommitWatcher implements EntitySubscriberInterface {
  private readonly watched = new WeakSet<QueryRunner>();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly dispatcher: WebhookDispatcher,
  ) {
    dataSource.subscribers.push(this);
  }

  /** Called by the outbox listener inside the transaction that recorded deliveries. */
  watch(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) this.watched.add(runner);
    else setImmediate(() => this.dispatcher.nudge());
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // A released savepoint also "commits": wait for the outermost transaction.
    if (event.queryRunner.isTransactionActive || !this.watched.has(event.queryRunner)) return;
    this.watched.delete(event.queryRunner);
    setImmediate(() => this.dispatcher.nudge());
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.watched.delete(event.queryRunner);
  }
}
