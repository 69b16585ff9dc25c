import Redis from 'ioredis';

export interface WindowHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetInMs: number;
}

/** Fixed-window counters: the first hit opens a window of `windowMs`, later hits count in it. */
export interface RateLimitStore {
  hit(subject: string, windowMs: number): Promise<WindowHit>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 60_000).unref();

  async hit(subject: string, windowMs: number): Promise<WindowHit> {
    const now = Date.now();
    let window = this.windows.get(subject);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(subject, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.resetAt - now };
  }

  async close(): Promise<void> {
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

/** Counters in Redis, so the limit holds across every instance sharing it. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  async hit(subject: string, windowMs: number): Promise<WindowHit> {
    const hit = this.redis as unknown as {
      rateLimitHit(key: string, windowMs: number): Promise<[number, number]>;
    };
    const [count, resetInMs] = await hit.rateLimitHit(`ratelimit:${subject}`, windowMs);
    return { count, resetInMs };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
