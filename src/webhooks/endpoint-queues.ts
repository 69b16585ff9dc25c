/** A claimed delivery as the queues know it: its id and its endpoint. */
export interface QueuedDelivery {
  id: string;
  endpointId: string;
}

/** A delivery waiting for its endpoint's turn, when it was claimed, and when what it sends was read. */
interface Queued<Delivery> {
  delivery: Delivery;
  claimedAt: number;
  readAt: number;
}

/** The deliveries of one endpoint a dispatcher holds: how many are being sent, and those queued behind them. */
interface EndpointWork<Delivery> {
  sending: number;
  queued: Queued<Delivery>[];
  /** Its queue is being read again: nothing of it is sent meanwhile. */
  rereading: boolean;
}

/** What may happen now, as `take` decides it. */
export interface Turn<Delivery> {
  /** To send now (each counted as sending to its endpoint until `sendEnded`). */
  send: Delivery[];
  /** Claimed too long ago to be sent before the claim goes stale: to give back. */
  late: Delivery[];
  /** Endpoints whose queue must be read again before more of it is sent (`startReread` marks them). */
  reread: string[];
}

/** The moment and the room of one `take`. */
export interface TakeLimits {
  now: number;
  /** A delivery claimed before this is late. */
  sendBy: number;
  /** A delivery read longer ago than this is read again before it is sent. */
  freshForMs: number;
  /** Sending slots this process has free. */
  slots: number;
}

/**
 * The dispatcher's deliveries per endpoint (webhook-dispatcher.ts), with no I/O: endpoints are served in the
 * order they came, each sending at most `perEndpoint` at once, while the process has slots; a delivery whose
 * claim would go stale before its send ends is late, and one read too long ago is read again (with the rest of
 * its endpoint's queue) before it goes.
 */
export class EndpointQueues<Delivery extends QueuedDelivery> {
  private readonly endpoints = new Map<string, EndpointWork<Delivery>>();
  private count = 0;

  constructor(private readonly perEndpoint: number) {}

  /** How many deliveries wait, in every queue. */
  get queued(): number {
    return this.count;
  }

  enqueue(delivery: Delivery, claimedAt: number): void {
    let work = this.endpoints.get(delivery.endpointId);
    if (!work) this.endpoints.set(delivery.endpointId, (work = { sending: 0, queued: [], rereading: false }));
    work.queued.push({ delivery, claimedAt, readAt: claimedAt });
    this.count += 1;
  }

  /** Takes what may go now, in endpoint order, up to the endpoints' limits and `slots`. */
  take({ now, sendBy, freshForMs, slots }: TakeLimits): Turn<Delivery> {
    const turn: Turn<Delivery> = { send: [], late: [], reread: [] };
    for (const [endpointId, work] of this.endpoints) {
      while (!work.rereading && work.queued.length > 0 && work.sending < this.perEndpoint && turn.send.length < slots) {
        const { delivery, claimedAt, readAt } = work.queued[0];
        if (claimedAt >= sendBy && readAt < now - freshForMs) {
          turn.reread.push(endpointId);
          break;
        }
        work.queued.shift();
        this.count -= 1;
        if (claimedAt < sendBy) {
          turn.late.push(delivery);
          continue;
        }
        work.sending += 1;
        turn.send.push(delivery);
      }
      if (work.sending === 0 && work.queued.length === 0) this.endpoints.delete(endpointId);
    }
    return turn;
  }

  /** A send to `endpointId` ended: answers how many of its deliveries were held (sending and queued) before. */
  sendEnded(endpointId: string): number {
    const work = this.endpoints.get(endpointId)!;
    const heldBefore = work.sending + work.queued.length;
    work.sending -= 1;
    return heldBefore;
  }

  /** Marks the endpoint's queue as being read again; answers the deliveries to read. */
  startReread(endpointId: string): Delivery[] {
    const work = this.endpoints.get(endpointId);
    if (!work) return [];
    work.rereading = true;
    return work.queued.map(({ delivery }) => delivery);
  }

  /**
   * The reading of `read` (what startReread answered) came back as `current` at `readAt`: those still held are
   * replaced by what was read, those missing are dropped; what came meanwhile stays as it is.
   */
  finishReread(endpointId: string, read: Delivery[], current: Delivery[], readAt: number): void {
    const work = this.endpoints.get(endpointId);
    if (!work) return;
    const asked = new Set(read.map((delivery) => delivery.id));
    const found = new Map(current.map((delivery) => [delivery.id, delivery]));
    const kept = work.queued.flatMap((entry) => {
      if (!asked.has(entry.delivery.id)) return [entry];
      const delivery = found.get(entry.delivery.id);
      return delivery ? [{ ...entry, delivery, readAt }] : [];
    });
    this.count -= work.queued.length - kept.length;
    work.queued = kept;
    work.rereading = false;
  }

  /** The reading failed: the queue is left as it was, to be read again at the next turn. */
  abandonReread(endpointId: string): void {
    const work = this.endpoints.get(endpointId);
    if (work) work.rereading = false;
  }

  /** Empties every queue (shutdown): the deliveries that waited, to give back. */
  drain(): Delivery[] {
    const drained = [...this.endpoints.values()].flatMap((work) => work.queued.map(({ delivery }) => delivery));
    for (const work of this.endpoints.values()) work.queued = [];
    this.count = 0;
    return drained;
  }
}
