import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Database } from '../database/database';
import { CoalescedSend } from './coalesced-send';
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
export class WebhookCommitWatcher {
  private readonly announce: () => void;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly database: Database,
    dispatcher: WebhookDispatcher,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    if (config.dispatchMode === 'off') {
      const notify = new CoalescedSend(() => dataSource.query(NOTIFY_DELIVERIES_RECORDED));
      this.announce = () => notify.ask();
    } else {
      this.announce = () => setImmediate(() => dispatcher.nudge());
    }
  }

  /** Called inside the transaction that recorded deliveries: announces them once it commits (at once outside one). */
  watch(manager: EntityManager): void {
    this.database.afterCommit(manager, this.announce);
  }
}
