import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, webhookClaimLifetimeMs } from '../config/config';
import { Metrics } from '../metrics/metrics';
import { ClaimedDelivery, SettledDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookSecrets } from './webhook-secrets';
import { SendResult, WebhookSender } from './webhook-sender';

/**
 * What the dispatcher is doing:
 * - stopped: not started (the CLI, most tests) or shut down; nudges are ignored;
 * - idle: started, no claim running; a nudge (a commit, the poll, a finished send, a retry) starts one;
 * - claiming: claims run while there are free sending slots and deliveries to claim;
 * - claimingAgain: as claiming, and a nudge came meanwhile, so one more round follows before idle;
 * - draining: shutting down; no more claims, the deliveries in flight finish.
 */
type Phase = 'stopped' | 'idle' | 'claiming' | 'claimingAgain' | 'draining';

/** How long after a failed claim the first new try waits; each failure doubles it, up to the poll interval. */
const FIRST_RETRY_MS = 500;

/** Writes the outcomes that finish in one turn of the event loop with one UPDATE. */
class OutcomeBatch {
  private waiting: SettledDelivery[] = [];
  private writing?: Promise<void>;

  constructor(private readonly write: (batch: SettledDelivery[]) => Promise<void>) {}

  /** Resolves once the outcome is written, together with the others of its turn. */
  add(settled: SettledDelivery): Promise<void> {
    this.waiting.push(settled);
    this.writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const batch = this.waiting;
      this.waiting = [];
      this.writing = undefined;
      return this.write(batch);
    });
    return this.writing;
  }
}

/**
 * Sends the outbox: claims pending deliveries (FOR UPDATE SKIP LOCKED, so any number of instances share the
 * work and each delivery goes once), sends each once, records the outcome. Claims are fair across endpoints:
 * at most WEBHOOK_ENDPOINT_CONCURRENCY in flight to one endpoint, counted in the database across every
 * instance, so a dead receiver holds that many sends and no more. A finished send frees its endpoint's slot
 * at once: the next claim is told it ended, without waiting for its outcome to be written. Started explicitly
 * by the server (createApp's `dispatch` option) unless DISPATCH_MODE is off, never by the CLI; shutdown waits
 * for the deliveries in flight.
 */
@Injectable()
export class WebhookDispatcher implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private phase: Phase = 'stopped';
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries whose send has ended and whose outcome is being written: their rows still say claimed. */
  private readonly sent = new Set<string>();
  /** How many sends this process has on their way to each endpoint. */
  private readonly sendingTo = new Map<string, number>();
  /** A nudge for the sends that end in this turn of the event loop, all answered by one claim. */
  private nudgeAfterTurn?: NodeJS.Immediate;
  private claiming?: Promise<void>;
  private poller?: NodeJS.Timeout;
  /** The next try after a failed claim: the nudge that failed may have been the only one (a worker listening anew). */
  private retry?: NodeJS.Timeout;
  private retryMs = FIRST_RETRY_MS;
  private readonly outcomes: OutcomeBatch;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecrets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.outcomes = new OutcomeBatch((batch) => this.deliveries.settleMany(batch));
  }

  start(): void {
    if (this.phase !== 'stopped') return;
    this.phase = 'idle';
    this.poller = setInterval(() => this.nudge(), this.config.webhookPollIntervalMs);
    this.nudge();
  }

  /** Look for work now. Cheap and safe to call at any time: a nudge that finds nothing does nothing. */
  nudge(): void {
    switch (this.phase) {
      case 'idle':
        this.phase = 'claiming';
        this.claiming = this.claimRounds();
        return;
      case 'claiming':
        this.phase = 'claimingAgain';
        return;
      case 'claimingAgain':
      case 'stopped':
      case 'draining':
        return;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.phase === 'stopped') return;
    this.phase = 'draining';
    clearInterval(this.poller);
    clearTimeout(this.retry);
    await this.claiming;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.phase = 'stopped';
  }

  private is(phase: Phase): boolean {
    return this.phase === phase;
  }

  private isClaiming(): boolean {
    return this.is('claiming') || this.is('claimingAgain');
  }

  private async claimRounds(): Promise<void> {
    try {
      do {
        if (this.phase === 'claimingAgain') this.phase = 'claiming';
        await this.claimWhileSlotsFree();
        // Nudges change the phase while claims are awaited: read it through a call, not a narrowed field.
      } while (this.is('claimingAgain'));
      this.retryMs = FIRST_RETRY_MS;
    } catch (error) {
      // The database is unreachable or similar: try again soon rather than wait for the poll.
      this.logger.error(`Claiming webhook deliveries failed: ${(error as Error).message}`);
      this.retryLater();
    } finally {
      if (this.isClaiming()) this.phase = 'idle';
      this.claiming = undefined;
    }
  }

  /** Claims until this process's slots are full or a claim finds fewer than it asked for. */
  private async claimWhileSlotsFree(): Promise<void> {
    const concurrency = this.config.webhookConcurrency;
    while (this.isClaiming() && this.inFlight.size < concurrency) {
      const wanted = concurrency - this.inFlight.size;
      const now = new Date();
      const staleBefore = new Date(now.getTime() - webhookClaimLifetimeMs(this.config));
      const claimed = await this.deliveries.claim(wanted, this.config.webhookEndpointConcurrency, now, staleBefore, [
        ...this.sent,
      ]);
      for (const delivery of claimed) {
        this.sendingTo.set(delivery.endpointId, (this.sendingTo.get(delivery.endpointId) ?? 0) + 1);
        this.track(this.deliver(delivery));
      }
      if (claimed.length < wanted) return;
    }
  }

  private retryLater(): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.nudge(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, this.config.webhookPollIntervalMs);
  }

  private track(sending: Promise<void>): void {
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }

  /**
   * Claims again when this send's endpoint was at its limit here (its deliveries waiting likely wait for this
   * slot), or when half this process's slots are free: refills come in batches rather than one claim per send,
   * and the sends that end in one turn of the event loop share one claim.
   */
  private sendEnded(endpointId: string): void {
    const sending = this.sendingTo.get(endpointId)!;
    if (sending === 1) this.sendingTo.delete(endpointId);
    else this.sendingTo.set(endpointId, sending - 1);
    const busy = this.inFlight.size - this.sent.size;
    if (sending < this.config.webhookEndpointConcurrency && busy > this.config.webhookConcurrency / 2) return;
    this.nudgeAfterTurn ??= setImmediate(() => {
      this.nudgeAfterTurn = undefined;
      this.nudge();
    });
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    let result: SendResult;
    try {
      result = await this.sender.send({
        deliveryId: delivery.id,
        eventId: delivery.eventId,
        event: delivery.event,
        url: delivery.url,
        body: delivery.body,
        traceparent: delivery.traceparent,
        secrets: this.secrets.signingKeys(delivery.endpointId, delivery, new Date()),
      });
    } catch (error) {
      result = {
        outcome: 'failed',
        statusCode: null,
        error: `not sent: ${(error as Error).message}`,
        durationMs: 0,
        responseExcerpt: null,
      };
    }
    this.metrics.deliveryFinished(result.outcome, result.durationMs);
    this.sent.add(delivery.id);
    this.sendEnded(delivery.endpointId);
    try {
      await this.outcomes.add({ id: delivery.id, result, at: new Date() });
    } catch (error) {
      // Unrecorded, the claim goes stale and the delivery is sent again later: at least once, never lost.
      this.logger.error(`Recording webhook delivery ${delivery.id} failed: ${(error as Error).message}`);
    } finally {
      this.sent.delete(delivery.id);
    }
    if (result.outcome !== 'delivered') {
      this.logger.warn(
        `Webhook delivery ${delivery.id} (${delivery.event}) ${result.outcome}: ${result.error ?? `HTTP ${result.statusCode}`}`,
      );
    }
  }
}
