import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { FixedWindowStorage } from '../../src/rate-limit/fixed-window.storage';
import { checkedRequest } from '../support/api-client';
import { createTenant, createTestApp } from '../support/app';
import { describeIfRedis } from '../support/requirements';
import { TcpProxy } from '../support/tcp-proxy';
import { waitUntil } from '../support/wait-until';

const LIMIT = 3;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('rate limit while Redis is unreachable', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    // Nothing listens on port 1: Redis is down from the start.
    app = await createTestApp({ rateLimitPerMinute: LIMIT, redisUrl: 'redis://127.0.0.1:1' });
  });
  afterAll(() => app.close());

  it('counts per instance in memory, with the headers, and still refuses past the limit', async () => {
    const tenant = await createTenant(app);
    const statuses: number[] = [];
    for (let n = 0; n <= LIMIT; n++) {
      const response = await checkedRequest(app).get('/api/v1/skills').set('Authorization', tenant.bearer);
      statuses.push(response.status);
      expect(response.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(response.headers['x-ratelimit-remaining']).toBe(String(Math.max(0, LIMIT - n - 1)));
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

// It cuts a real Redis off and brings it back, so it needs one.
describeIfRedis('FixedWindowStorage across a Redis outage', () => {
  let proxy: TcpProxy;
  let storage: FixedWindowStorage;
  let warn: jest.SpyInstance;
  let log: jest.SpyInstance;

  beforeAll(async () => {
    proxy = await TcpProxy.forUrl(redisUrl).start();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    storage = new FixedWindowStorage(proxy.urlFor(redisUrl));
    await storage.onModuleInit();
  });
  afterAll(async () => {
    await storage.onApplicationShutdown();
    await proxy.stop();
    jest.restoreAllMocks();
  });

  const outageLines = () => warn.mock.calls.filter(([message]) => String(message).includes('Redis is unreachable'));
  const backLines = () => log.mock.calls.filter(([message]) => String(message).includes('Redis is reachable again'));

  it('says once that Redis is lost and once that it is back, however many requests come', async () => {
    const key = `outage-${Date.now()}`;
    expect((await storage.increment(key, 60_000, 10)).totalHits).toBe(1);

    await proxy.stop();
    for (let n = 0; n < 20; n++) await storage.increment(key, 60_000, 10);
    expect(outageLines()).toHaveLength(1);

    await proxy.start();
    await waitUntil(
      async () => {
        await storage.increment(key, 60_000, 10);
        return backLines().length > 0;
      },
      'a request finds Redis back',
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    for (let n = 0; n < 5; n++) await storage.increment(key, 60_000, 10);
    expect(backLines()).toHaveLength(1);
    expect(outageLines()).toHaveLength(1);
  });
});

describe('rate limit without REDIS_URL on a shared database', () => {
  it('warns at start that each instance counts on its own', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const app = await createTestApp({ redisUrl: undefined });
      await app.close();
      expect(warn.mock.calls.map(([message]) => String(message))).toContainEqual(
        expect.stringMatching(/^REDIS_URL is not set: each instance counts the rate limit on its own/),
      );
    } finally {
      warn.mockRestore();
    }
  });
});
