import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';

interface WindowHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetInMs: number;
}

/** Fixed windows in this process's memory: the first hit opens a window, later hits count in it. */
export class MemoryWindows {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  hit(subject: string, windowMs: number): WindowHit {
    const now = Date.now();
    let window = this.windows.get(subject);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(subject, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [subject, window] of this.windows) if (window.resetAt <= now) this.windows.delete(subject);
  }
}

// One round trip: count the hit, open the window on the first one, report what is left of it.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

type RedisWithHit = Redis & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/**
 * @nestjs/throttler's storage, counting a fixed window per tracker as docs/api-decisions.md wants (the first hit
 * opens the window; the 1,001st hit in it is refused until it resets) rather than throttler's own sliding
 * log, which decays each hit separately and blocks past the window. With Redis the counters are shared by
 * every instance; while Redis is unreachable each instance counts in memory, and says so once.
 */
export class FixedWindowStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly memory = new MemoryWindows();
  private readonly redis?: RedisWithHit;
  private redisLost = false;

  constructor(redisUrl?: string) {
    if (!redisUrl) return;
    // Loaded only with REDIS_URL: without it ioredis is never read, and its code would stay in the heap.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const RedisClient = require('ioredis') as typeof Redis;
    // Fail fast instead of queueing while Redis is away: the memory counters take over at once.
    this.redis = new RedisClient(redisUrl, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
    }) as RedisWithHit;
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    // ioredis reports every reconnection attempt; the outage is reported once, by hit().
    this.redis.on('error', () => undefined);
  }

  async onModuleInit(): Promise<void> {
    await this.redis?.connect().catch((error: Error) => this.lose(error));
  }

  async increment(key: string, ttl: number, limit: number): ReturnType<ThrottlerStorage['increment']> {
    const { count, resetInMs } = await this.hit(key, ttl);
    const timeToExpire = Math.max(1, Math.ceil(resetInMs / 1000));
    const isBlocked = count > limit;
    return { totalHits: count, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
  }

  async onApplicationShutdown(): Promise<void> {
    this.memory.close();
    if (this.redis?.status === 'ready') await this.redis.quit();
    else this.redis?.disconnect();
  }

  private async hit(key: string, windowMs: number): Promise<WindowHit> {
    if (!this.redis) return this.memory.hit(key, windowMs);
    try {
      const [count, resetInMs] = await this.redis.rateLimitHit(`ratelimit:${key}`, windowMs);
      if (this.redisLost) {
        this.redisLost = false;
        this.logger.log('Redis is reachable again: rate-limit counters are shared by every instance');
      }
      return { count, resetInMs };
    } catch (error) {
      this.lose(error as Error);
      return this.memory.hit(key, windowMs);
    }
  }

  private lose(error: Error): void {
    if (this.redisLost) return;
    this.redisLost = true;
    this.logger.warn(`Redis is unreachable (${error.message}): counting the rate limit per instance until it is back`);
  }
}
