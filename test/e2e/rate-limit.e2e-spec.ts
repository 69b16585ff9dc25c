import { NestExpressApplication } from '@nestjs/platform-express';
import { checkedRequest } from '../support/api-client';
import { createTenant, createTestApp, TestTenant } from '../support/app';
import { ProbeModule } from '../support/probe.module';
import { describeIfRedis } from '../support/requirements';

const LIMIT = 5;

describe('rate limit', () => {
  describe('in memory', () => {
    let app: NestExpressApplication;
    let tenant: TestTenant;

    beforeAll(async () => {
      app = await createTestApp({ rateLimitPerMinute: LIMIT, redisUrl: undefined }, [ProbeModule]);
      tenant = await createTenant(app);
    });
    afterAll(() => app.close());

    it('counts down per key and refuses the request after the limit with 429 RATE_LIMITED', async () => {
      for (let n = 1; n <= LIMIT; n++) {
        const response = await checkedRequest(app).get('/api/v1/probe').set('Authorization', tenant.bearer);
        expect(response.status).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBe(String(LIMIT));
        expect(response.headers['x-ratelimit-remaining']).toBe(String(LIMIT - n));
        expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
        expect(Number(response.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
      }
      const refused = await checkedRequest(app).get('/api/v1/probe').set('Authorization', tenant.bearer);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ success: false, error: { message: expect.any(String), code: 'RATE_LIMITED' } });
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    });

    it('gives every key its own window', async () => {
      const other = await createTenant(app);
      const response = await checkedRequest(app).get('/api/v1/probe').set('Authorization', other.bearer);
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
    });

    it('limits requests without a valid key by client address', async () => {
      const statuses: number[] = [];
      for (let n = 0; n <= LIMIT; n++) {
        statuses.push((await checkedRequest(app).get('/api/v1/probe').set('Authorization', 'Bearer nope')).status);
      }
      expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
    });

    it('never limits the health checks', async () => {
      for (let n = 0; n <= LIMIT + 1; n++) {
        const response = await checkedRequest(app).get('/health/live');
        expect(response.status).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });
  });

  describeIfRedis('in Redis, shared by instances', () => {
    const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    let first: NestExpressApplication;
    let second: NestExpressApplication;

    beforeAll(async () => {
      first = await createTestApp({ rateLimitPerMinute: LIMIT, redisUrl }, [ProbeModule]);
      second = await createTestApp({ rateLimitPerMinute: LIMIT, redisUrl }, [ProbeModule]);
    });
    afterAll(async () => {
      await first.close();
      await second.close();
    });

    it('holds one limit across two app instances', async () => {
      const tenant = await createTenant(first);
      const statuses: number[] = [];
      for (let n = 0; n <= LIMIT; n++) {
        const app = n % 2 === 0 ? first : second;
        statuses.push((await checkedRequest(app).get('/api/v1/probe').set('Authorization', tenant.bearer)).status);
      }
      expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
    });
  });
});
