import { MemoryRateLimitStore } from './rate-limit.store';

describe('MemoryRateLimitStore', () => {
  let store: MemoryRateLimitStore;
  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    store = new MemoryRateLimitStore();
  });
  afterEach(async () => {
    await store.close();
    jest.useRealTimers();
  });

  it('counts hits in a fixed window opened by the first hit', async () => {
    expect(await store.hit('a', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    jest.advanceTimersByTime(59_000);
    expect(await store.hit('a', 60_000)).toEqual({ count: 2, resetInMs: 1_000 });
  });

  it('starts a new window once the old one has passed', async () => {
    await store.hit('a', 60_000);
    jest.advanceTimersByTime(60_000);
    expect(await store.hit('a', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
  });

  it('keeps subjects apart', async () => {
    await store.hit('a', 60_000);
    expect((await store.hit('b', 60_000)).count).toBe(1);
  });
});
