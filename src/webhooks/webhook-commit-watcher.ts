import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { TransactionCommitEvent } from 'typeorm/subscriber/event/TransactionCommitEvent';
import { TransactionRollbackEvent } from 'typeorm/subscriber/event/TransactionRollbackEvent';
import { CoalescedSend } from '../common/coalesced-send';
import { APP_CONFIG, AppConfig } from '../config/config';
import { NOTIFY_DELIVERIES_RECORDED } from './delivery-notification.listener';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * Announces a transaction that recorded deliveries once it commits, so the API call never waits for sending
 * and the rows are visible when a dispatcher looks: this process's dispatcher is nudged; with
 * DISPATCH_MODE=off, where workers send, a NOTIFY wakes their LISTEN. The NOTIFY goes after the commit, on
 * its own, one at a time per instance: inside the change's transaction it would take PostgreSQL's
 * notification-queue lock at every commit and hold it through the commit's WAL flush, queueing all writes.
 */
@Injectable()
export class WebhookCommitWatcher implements EntitySubscriberInterface {
  private readonly watched = new WeakSet<QueryRunner>();
  private readonly announce: () => void;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    dispatcher: WebhookDispatcher,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    if (config.dispatchMode === 'off') {
      const notify = new CoalescedSend(() => dataSource.query(NOTIFY_DELIVERIES_RECORDED));
      this.announce = () => notify.ask();
    } else {
      this.announce = () => setImmediate(() => dispatcher.nudge());
    }
    dataSource.subscribers.push(this);
  }

  /** Called by the outbox listener inside the transaction that recorded deliveries. */
  watch(manager: EntityManager): void {
    const runner = manager.queryRunner;
    if (runner?.isTransactionActive) this.watched.add(runner);
    else this.announce();
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // A released savepoint also "commits": wait for the outermost transaction.
    if (event.queryRunner.isTransactionActive || !this.watched.has(event.queryRunner)) return;
    this.watched.delete(event.queryRunner);
    this.announce();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.watched.delete(event.queryRunner);
  }
}
