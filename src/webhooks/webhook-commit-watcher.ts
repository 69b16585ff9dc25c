import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { TransactionCommitEvent } from 'typeorm/subscriber/event/TransactionCommitEvent';
import { TransactionRollbackEvent } from 'typeorm/subscriber/event/TransactionRollbackEvent';
import { APP_CONFIG, AppConfig } from '../config/config';
import { NOTIFY_DELIVERIES_RECORDED } from './delivery-notification.listener';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * Announces a transaction that recorded deliveries once it commits, so the API call never waits for sending
 * and the rows are visible when a dispatcher looks: this process's dispatcher is nudged right after the
 * commit; with DISPATCH_MODE=off, where the workers send, a NOTIFY goes in the transaction instead, which
 * PostgreSQL delivers to their LISTEN on commit (one cheap statement per transaction, not per event).
 */
@Injectable()
export class WebhookCommitWatcher implements EntitySubscriberInterface {
  private readonly watched = new WeakSet<QueryRunner>();
  private readonly notifyWorkers: boolean;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly dispatcher: WebhookDispatcher,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.notifyWorkers = config.dispatchMode === 'off';
    dataSource.subscribers.push(this);
  }

  /** Called by the outbox listener inside the transaction that recorded deliveries. */
  watch(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) this.watched.add(runner);
    // Without a transaction the rows are committed already; a lost nudge leaves them to the poll.
    else if (this.notifyWorkers) void manager.query(NOTIFY_DELIVERIES_RECORDED).catch(() => undefined);
    else setImmediate(() => this.dispatcher.nudge());
  }

  /**
   * Awaited by TypeORM before COMMIT (or before releasing a savepoint, whose NOTIFY then belongs to the
   * enclosing transaction and goes or not with it). Not async: other commits are not made to wait a turn.
   */
  beforeTransactionCommit(event: TransactionCommitEvent): Promise<unknown> | void {
    if (!this.notifyWorkers || !this.watched.has(event.queryRunner)) return;
    this.watched.delete(event.queryRunner);
    return event.queryRunner.query(NOTIFY_DELIVERIES_RECORDED);
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
