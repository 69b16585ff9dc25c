import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, webhookClaimLifetimeMs } from '../config/config';
import { Metrics } from '../metrics/metrics';
import { EndpointQueues } from './endpoint-queues';
import { ClaimedDelivery, SettledDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookSecrets } from './webhook-secrets';
import { SendResult, WebhookSender } from './webhook-sender';

/**
 * What the dispatcher is doing:
 * - stopped: not started (the CLI, most tests) or shut down; nudges are ignored;
 * - idle: started, no claim running; a nudge (a commit, the poll, a finished send, a retry) starts one;
 * - claiming: claims run while this process may hold more deliveries and there are some to claim;
 * - claimingAgain: as claiming, and a nudge came meanwhile, so one more round follows before idle;
 * - draining: shutting down; no more claims, the deliveries in flight finish.
 */
type Phase = 'stopped' | 'idle' | 'claiming' | 'claimingAgain' | 'draining';

/** How long after a failed claim the first new try waits; each failure doubles it, up to the poll interval. */
const FIRST_RETRY_MS = 500;

/**
 * How many deliveries of one endpoint its owner may hold, as a multiple of what it sends at once: enough queued
 * that a fast receiver's sends go on while the next claim is under way (bench:webhooks, docs/performance.md).
 */
const HELD_PER_SEND = 8;

/** How many deliveries this process may hold in all, as a multiple of its sending slots. */
const HELD_PER_SLOT = 4;

/**
 * How long what a claim read (the endpoint's URL and secrets, the event's body) is sent as read: a delivery queued
 * longer is read again first, so a rotation, a deletion or an erasure reaches the queue as it reaches a claim.
 */
const FRESH_FOR_MS = 50;

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
 * endpoints in turn, and one dispatcher at a time owns an endpoint (the claim holds to it, counted in the
 * database across every instance), sending at most WEBHOOK_ENDPOINT_CONCURRENCY to it at once, so a dead
 * receiver holds that many sends and no more. The owner may hold more (HELD_PER_SEND): they wait in its queue,
 * and each ending send starts the next at once, so one busy endpoint's rate is not bound by a claim's round
 * trip. A finished send frees its endpoint's place at once: the next claim is told it ended, without waiting
 * for its outcome to be written. A queued delivery whose claim would go stale before its send could end is
 * given back instead of sent. Started explicitly by the server (createApp's `dispatch` option) unless
 * DISPATCH_MODE is off, never by the CLI; shutdown gives back the queue and waits for the sends under way.
 */
@Injectable()
export class WebhookDispatcher implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private phase: Phase = 'stopped';
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries whose send has ended and whose outcome is being written: their rows still say claimed. */
  private readonly sent = new Set<string>();
  /** Who this dispatcher is to the claims: the rows it claimed say so. */
  private readonly claimer = randomUUID();
  /** The deliveries this process holds, per endpoint, in the order endpoints are served when sending slots free. */
  private readonly queues: EndpointQueues<ClaimedDelivery>;
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
    this.queues = new EndpointQueues(config.webhookEndpointConcurrency);
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
    await this.unclaimQueued();
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

  /** How many of its deliveries this process may hold, sending and queued. */
  private capacity(): number {
    return HELD_PER_SLOT * this.config.webhookConcurrency;
  }

  /** How many of one endpoint's deliveries this process may hold, sending and queued. */
  private heldPerEndpoint(): number {
    return HELD_PER_SEND * this.config.webhookEndpointConcurrency;
  }

  /** Sends under way: in flight, less those whose send has ended and whose outcome is being written. */
  private sending(): number {
    return this.inFlight.size - this.sent.size;
  }

  /** Claims until this process holds all it may or a claim finds fewer than it asked for. */
  private async claimWhileSlotsFree(): Promise<void> {
    while (this.isClaiming() && this.sending() + this.queues.queued < this.capacity()) {
      const wanted = this.capacity() - this.sending() - this.queues.queued;
      const now = new Date();
      const staleBefore = new Date(now.getTime() - webhookClaimLifetimeMs(this.config));
      const claimed = await this.deliveries.claim(this.claimer, wanted, this.heldPerEndpoint(), now, staleBefore, [
        ...this.sent,
      ]);
      for (const delivery of claimed) this.queues.enqueue(delivery, now.getTime());
      this.sendQueued();
      if (claimed.length < wanted) return;
    }
  }

  /**
   * Starts the queued deliveries that may go now (EndpointQueues.take). One whose send could still be under way
   * when its claim goes stale (another dispatcher would then take it) is given back rather than sent; one read
   * more than FRESH_FOR_MS ago is read again first, with the rest of its endpoint's queue.
   */
  private sendQueued(): void {
    if (this.is('draining') || this.is('stopped')) return;
    const now = Date.now();
    const turn = this.queues.take({
      now,
      sendBy: now - (webhookClaimLifetimeMs(this.config) - this.config.webhookTimeoutMs),
      freshForMs: FRESH_FOR_MS,
      slots: this.config.webhookConcurrency - this.sending(),
    });
    for (const delivery of turn.send) this.track(this.deliver(delivery));
    for (const endpointId of turn.reread) void this.reread(endpointId);
    if (turn.late.length > 0) void this.unclaim(turn.late.map((delivery) => delivery.id));
  }

  /** Reads an endpoint's queue again, drops what is no longer held, and sends on. */
  private async reread(endpointId: string): Promise<void> {
    const readAt = Date.now();
    const read = this.queues.startReread(endpointId);
    try {
      const current = await this.deliveries.reread(
        this.claimer,
        read.map((delivery) => delivery.id),
      );
      // Claims that came meanwhile are kept as they are; shutdown may have emptied the queue.
      this.queues.finishReread(endpointId, read, current, readAt);
      this.sendQueued();
    } catch (error) {
      // Left as they are, without a new try at once: the next ending send or claim reads them again, or their
      // claims go stale.
      this.queues.abandonReread(endpointId);
      this.logger.error(`Reading queued webhook deliveries again failed: ${(error as Error).message}`);
    }
  }

  /** Gives back the queued deliveries on shutdown, so another dispatcher sends them without waiting for staleness. */
  private async unclaimQueued(): Promise<void> {
    await this.unclaim(this.queues.drain().map((delivery) => delivery.id));
  }

  /** Unclaimed, a delivery is claimed again at once; if this fails, its claim goes stale and it is taken then. */
  private async unclaim(ids: string[]): Promise<void> {
    try {
      await this.deliveries.unclaim(this.claimer, ids);
    } catch (error) {
      this.logger.error(`Giving back ${ids.length} webhook deliveries failed: ${(error as Error).message}`);
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
   * Starts what was waiting for this send's place. Claims again when the endpoint was sending all it may and has
   * run down to half what it may hold (it likely has more waiting), or when half this process's slots are free:
   * refills come in batches rather than one claim per send, and the sends that end in one turn of the event loop
   * share one claim.
   */
  private sendEnded(endpointId: string): void {
    const heldBefore = this.queues.sendEnded(endpointId);
    this.sendQueued();
    const ranDown =
      heldBefore >= this.config.webhookEndpointConcurrency && heldBefore - 1 <= this.heldPerEndpoint() / 2;
    if (!ranDown && this.sending() > this.config.webhookConcurrency / 2) return;
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
