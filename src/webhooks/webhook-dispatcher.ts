import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ClaimedDelivery, SettledDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookSecrets } from './webhook-secrets';
import { SendResult, WebhookSender } from './webhook-sender';

/** How many deliveries one instance sends at once. */
const CONCURRENCY = 32;
/** The poll that picks up what other instances' commits, the CLI and crashes left pending. */
const POLL_INTERVAL_MS = 2000;
/** A claim this much older than the send timeout belongs to a dispatcher that died mid-send. */
const STALE_CLAIM_MARGIN_MS = 30_000;

/**
 * Sends the outbox: claims pending deliveries (FOR UPDATE SKIP LOCKED, so any number of instances share the
 * work and each delivery goes once), sends each once, records the outcome. Started explicitly by the server
 * (createApp's `dispatch` option), never by the CLI; shutdown waits for the deliveries in flight.
 */
@Injectable()
export class WebhookDispatcher implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private poller?: NodeJS.Timeout;
  private pumping?: Promise<void>;
  private pumpAgain = false;
  /** The last claim filled every free slot, so more may be waiting: a finished send pulls the next. */
  private backlog = false;
  /** Outcomes waiting to be written together (one UPDATE per turn of the event loop). */
  private unrecorded: SettledDelivery[] = [];
  private recording?: Promise<void>;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecrets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.poller = setInterval(() => this.nudge(), POLL_INTERVAL_MS);
    this.nudge();
  }

  /** Look for work now. Cheap and safe to call at any time: a nudge that finds nothing does nothing. */
  nudge(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pump().finally(() => (this.pumping = undefined));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    clearInterval(this.poller);
    await this.pumping;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.pumpAgain = false;
        while (this.running && this.inFlight.size < CONCURRENCY) {
          const wanted = CONCURRENCY - this.inFlight.size;
          const now = new Date();
          const staleBefore = new Date(now.getTime() - this.config.webhookTimeoutMs - STALE_CLAIM_MARGIN_MS);
          const claimed = await this.deliveries.claim(wanted, now, staleBefore);
          for (const delivery of claimed) this.track(this.deliver(delivery));
          this.backlog = claimed.length === wanted;
          if (!this.backlog) break;
        }
      } while (this.pumpAgain && this.running);
    } catch (error) {
      // The database is unreachable or similar: the next nudge or poll tries again.
      this.logger.error(`Claiming webhook deliveries failed: ${(error as Error).message}`);
    }
  }

  private track(sending: Promise<void>): void {
    this.inFlight.add(sending);
    void sending.finally(() => {
      this.inFlight.delete(sending);
      // Refill in batches rather than one claim per finished send.
      if (this.backlog && this.inFlight.size <= CONCURRENCY / 2) this.nudge();
    });
  }

  /** Resolves once the outcome is written, together with the others that finished in the same turn. */
  private record(settled: SettledDelivery): Promise<void> {
    this.unrecorded.push(settled);
    this.recording ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const batch = this.unrecorded;
      this.unrecorded = [];
      this.recording = undefined;
      return this.deliveries.settleMany(batch);
    });
    return this.recording;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    let result: SendResult;
    try {
      const secret = this.secrets.signingKey(delivery.secretSealed, delivery.endpointId);
      result = await this.sender.send({
        deliveryId: delivery.id,
        event: delivery.event,
        url: delivery.url,
        body: delivery.body,
        secret,
      });
    } catch (error) {
      result = { outcome: 'failed', statusCode: null, error: `not sent: ${(error as Error).message}`, durationMs: 0 };
    }
    try {
      await this.record({ id: delivery.id, result, at: new Date() });
    } catch (error) {
      // Unrecorded, the claim goes stale and the delivery is sent again later: at least once, never lost.
      this.logger.error(`Recording webhook delivery ${delivery.id} failed: ${(error as Error).message}`);
    }
    if (result.outcome !== 'delivered') {
      this.logger.warn(
        `Webhook delivery ${delivery.id} (${delivery.event}) ${result.outcome}: ${result.error ?? `HTTP ${result.statusCode}`}`,
      );
    }
  }
}
