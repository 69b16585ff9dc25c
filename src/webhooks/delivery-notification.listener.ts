import { setTimeout as sleep } from 'node:timers/promises';
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/config';
import { clientQueryTimeoutMs } from '../database/data-source-options';
import { WebhookDispatcher } from './webhook-dispatcher';

/** Where API instances that do not dispatch (DISPATCH_MODE=off) announce that they recorded deliveries. */
const CHANNEL = 'webhook_deliveries';

/** Run after a commit that recorded deliveries (WebhookCommitWatcher), so the rows are visible when a worker looks. */
export const NOTIFY_DELIVERIES_RECORDED = `SELECT pg_notify('${CHANNEL}', '')`;

/** How long the first reconnection waits; each failure doubles it, up to the last. */
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;

/**
 * A worker's LISTEN, on a connection of its own: a pooled one goes back to others after each use. Each
 * notification nudges the dispatcher, whose poll stays the fallback. A transaction pooler (PgBouncer in
 * transaction mode) cannot hold a LISTEN, so it uses DATABASE_DIRECT_URL when set; without it, behind such a
 * pooler, the poll interval bounds how late a delivery goes. A lost connection is made again after a pause
 * that grows; once listening again, the dispatcher is nudged for whatever was announced meanwhile. A frozen
 * server or a lost route closes nothing, so an idle LISTEN could wait for notifications forever: every
 * DATABASE_TIMEOUT_MS the connection is asked a `SELECT 1`, and one unanswered past the statement limit (and
 * the pool's margin) counts as lost.
 */
@Injectable()
export class DeliveryNotificationListener implements BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryNotificationListener.name);
  private started = false;
  /** The connection listening or being made; undefined while waiting to reconnect and once shut down. */
  private client?: Client;
  private retry?: NodeJS.Timeout;
  /** The next check that the listening connection still answers. */
  private check?: NodeJS.Timeout;
  private retryMs = FIRST_RETRY_MS;

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    void this.connect();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.started = false;
    clearTimeout(this.retry);
    clearTimeout(this.check);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // A frozen server never answers the goodbye: wait for it as long as for a connection, no longer.
    await Promise.race([
      client.end().catch(() => undefined),
      sleep(this.config.databaseTimeoutMs, undefined, { ref: false }),
    ]);
  }

  private async connect(): Promise<void> {
    if (!this.started) return;
    const client = new Client({
      // loadConfig allows DISPATCH_MODE=worker only with DATABASE_URL; a LISTEN needs a session of its own.
      connectionString: this.config.databaseDirectUrl ?? this.config.databaseUrl,
      connectionTimeoutMillis: this.config.databaseTimeoutMs,
      // Bounds the LISTEN and each check as the pool bounds a statement.
      query_timeout: clientQueryTimeoutMs(this.config.databaseStatementTimeoutMs),
      keepAlive: true,
      application_name: 'webhook-delivery-listener',
    });
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      void client.end().catch(() => undefined);
      if (this.client !== client) return;
      clearTimeout(this.check);
      this.reconnectLater(error);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', () => this.dispatcher.nudge());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    // Shut down while connecting.
    if (this.client !== client) return;
    if (this.retryMs !== FIRST_RETRY_MS) this.logger.log('Listening for webhook deliveries again');
    this.retryMs = FIRST_RETRY_MS;
    this.dispatcher.nudge();
    this.checkLater(client, onLost);
  }

  private checkLater(client: Client, onLost: (error: Error) => void): void {
    this.check = setTimeout(() => {
      client.query('SELECT 1').then(() => {
        if (this.client === client) this.checkLater(client, onLost);
      }, onLost);
    }, this.config.databaseTimeoutMs);
  }

  private reconnectLater(error?: Error): void {
    this.client = undefined;
    this.logger.warn(
      `Listening for webhook deliveries stopped (${error?.message ?? 'connection closed'}): ` +
        `trying again in ${this.retryMs} ms; the poll finds deliveries meanwhile`,
    );
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
  }
}
