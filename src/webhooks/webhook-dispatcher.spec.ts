import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import type { Metrics } from '../metrics/metrics';
import type { ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';
import type { WebhookSecrets } from './webhook-secrets';
import type { SendResult, WebhookSender } from './webhook-sender';

const PER_ENDPOINT = 2;
const TIMEOUT_MS = 10_000;

/** A dispatcher over a repository and a sender the test drives: each send ends when the test says so. */
function harness(queuedByEndpoint: Record<string, number>) {
  const deliveries: ClaimedDelivery[] = Object.entries(queuedByEndpoint).flatMap(([endpointId, count]) =>
    Array.from(
      { length: count },
      (_, i) => ({ id: `${endpointId}-${i}`, endpointId, url: 'https://old.example' }) as ClaimedDelivery,
    ),
  );
  // Claims after the first wait until the test lets them answer (nothing more to claim).
  let answerClaims: (rows: ClaimedDelivery[]) => void = () => undefined;
  const laterClaims = new Promise<ClaimedDelivery[]>((resolve) => (answerClaims = resolve));
  const repository = {
    claim: jest.fn().mockResolvedValueOnce(deliveries).mockReturnValue(laterClaims),
    unclaim: jest.fn().mockResolvedValue(undefined),
    reread: jest.fn((_claimer: string, ids: string[]) =>
      Promise.resolve(deliveries.filter(({ id }) => ids.includes(id))),
    ),
    settleMany: jest.fn().mockResolvedValue(undefined),
  };
  /** How to end each send under way. */
  const ends = new Map<string, () => void>();
  const sender = {
    send: jest.fn(
      ({ deliveryId }: { deliveryId: string; url: string }) =>
        new Promise<SendResult>((resolve) =>
          ends.set(deliveryId, () => {
            ends.delete(deliveryId);
            resolve({ outcome: 'delivered', statusCode: 200, error: null, durationMs: 1, responseExcerpt: null });
          }),
        ),
    ),
  };
  const config = {
    webhookConcurrency: 8,
    webhookEndpointConcurrency: PER_ENDPOINT,
    webhookTimeoutMs: TIMEOUT_MS,
    webhookPollIntervalMs: 3_600_000,
  } as AppConfig;
  const dispatcher = new WebhookDispatcher(
    repository as unknown as WebhookDeliveriesRepository,
    sender as unknown as WebhookSender,
    { signingKeys: () => ['key'] } as unknown as WebhookSecrets,
    config,
    { deliveryFinished: () => undefined } as unknown as Metrics,
  );
  const sent = () => sender.send.mock.calls.map(([{ deliveryId }]) => deliveryId);
  /** Ends a send and lets the dispatcher react: the send's settlement, the next turn's nudge and claim. */
  const end = async (deliveryId: string) => {
    ends.get(deliveryId)!();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  };
  /** Shuts down: the claim under way answers nothing more, and the sends under way end. */
  const stop = async () => {
    answerClaims([]);
    const stopping = dispatcher.beforeApplicationShutdown();
    for (const endSend of ends.values()) endSend();
    await stopping;
  };
  const urlOf = (deliveryId: string) =>
    sender.send.mock.calls.find(([call]) => call.deliveryId === deliveryId)?.[0].url;
  return { dispatcher, repository, sent, end, stop, answerClaims, urlOf };
}

describe('WebhookDispatcher', () => {
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'setTimeout', 'setInterval', 'nextTick', 'queueMicrotask'] });
    jest.setSystemTime(new Date('2026-11-27T08:00:00Z'));
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('sends at most WEBHOOK_ENDPOINT_CONCURRENCY to one endpoint and starts the next queued as one ends', async () => {
    const { dispatcher, sent, end, stop } = harness({ a: 5, b: 1 });
    dispatcher.start();
    await turn();
    expect(sent()).toEqual(['a-0', 'a-1', 'b-0']);

    // Each queued delivery goes as a send ends, while the claim that followed the first claim has not answered.
    await end('a-0');
    expect(sent()).toEqual(['a-0', 'a-1', 'b-0', 'a-2']);
    await end('a-1');
    await end('a-2');
    expect(sent()).toEqual(['a-0', 'a-1', 'b-0', 'a-2', 'a-3', 'a-4']);
    await stop();
  });

  it('gives back a queued delivery whose claim would go stale before its send could end, and sends it not', async () => {
    const { dispatcher, repository, sent, end, stop } = harness({ a: 3 });
    dispatcher.start();
    await turn();
    expect(sent()).toEqual(['a-0', 'a-1']);

    // Claims last WEBHOOK_TIMEOUT_MS + 30 s: a send started 30 s after the claim could outlast it.
    jest.setSystemTime(Date.now() + 30_001);
    await end('a-0');
    expect(sent()).toEqual(['a-0', 'a-1']);
    expect(repository.unclaim).toHaveBeenCalledWith(expect.any(String), ['a-2']);
    await stop();
  });

  it('reads again what waited queued longer than 50 ms, and drops what it no longer holds', async () => {
    const { dispatcher, repository, sent, end, stop, urlOf } = harness({ a: 4 });
    dispatcher.start();
    await turn();
    expect(sent()).toEqual(['a-0', 'a-1']);

    // Meanwhile the endpoint's URL changed, and a-3 went (its endpoint deleted, or claimed by another once stale).
    jest.setSystemTime(Date.now() + 51);
    repository.reread.mockResolvedValueOnce([
      { id: 'a-2', endpointId: 'a', url: 'https://new.example' } as ClaimedDelivery,
    ]);
    await end('a-0');
    expect(repository.reread).toHaveBeenCalledWith(expect.any(String), ['a-2', 'a-3']);
    expect(sent()).toEqual(['a-0', 'a-1', 'a-2']);
    expect(urlOf('a-2')).toBe('https://new.example');
    await end('a-1');
    await end('a-2');
    expect(sent()).toEqual(['a-0', 'a-1', 'a-2']);
    expect(repository.unclaim).not.toHaveBeenCalled();
    await stop();
  });

  it('gives back what it holds queued when it shuts down, and waits for the sends under way', async () => {
    const { dispatcher, repository, sent, end, answerClaims } = harness({ a: 4 });
    dispatcher.start();
    await turn();
    expect(sent()).toEqual(['a-0', 'a-1']);

    answerClaims([]);
    const stopping = dispatcher.beforeApplicationShutdown();
    await turn();
    expect(repository.unclaim).toHaveBeenCalledWith(expect.any(String), ['a-2', 'a-3']);
    let stopped = false;
    void stopping.then(() => (stopped = true));
    await end('a-0');
    expect(stopped).toBe(false);
    await end('a-1');
    await stopping;
    expect(sent()).toEqual(['a-0', 'a-1']);
  });
});
