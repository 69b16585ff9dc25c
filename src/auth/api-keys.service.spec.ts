import { Logger } from '@nestjs/common';
import type { ActivityLog } from '../audit/activity-log';
import { BOOKKEEPING_RETRY_MS, BookkeepingWrites } from '../database/bookkeeping-writes';
import { Database } from '../database/database';
import { hashApiKey } from './api-key-hash';
import { ActiveApiKey, ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService, LAST_USED_PRECISION_MS } from './api-keys.service';

const CLEAR_KEY = 'sk_test';

const services: ApiKeysService[] = [];

/** The service with the real bookkeeping on a database whose transactions only run their work. */
function serviceWith(row: ActiveApiKey, recordUses: jest.Mock) {
  const repository = {
    findActiveByHash: jest.fn((hash: string) => Promise.resolve(hash === hashApiKey(CLEAR_KEY) ? row : null)),
    recordUses,
  };
  const database = {
    transaction: (work: (manager: unknown) => Promise<unknown>) => work({ query: () => Promise.resolve([]) }),
  } as unknown as Database;
  const service = new ApiKeysService(
    repository as unknown as ApiKeysRepository,
    database,
    { record: () => Promise.resolve() } as unknown as ActivityLog,
    new BookkeepingWrites(database),
  );
  services.push(service);
  return service;
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

const row = (expiresAt: Date | null = null): ActiveApiKey => ({
  id: 'key-1',
  organisationId: 'org-1',
  name: null,
  scopes: ['read'],
  expiresAt,
});

describe('ApiKeysService.authenticate', () => {
  let now: jest.SpyInstance<number, []>;
  beforeEach(() => {
    now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    for (const service of services.splice(0)) service.onModuleDestroy();
  });

  it('records a use at most once a minute per key, without waiting for it', async () => {
    const recordUses = jest.fn(() => Promise.resolve());
    const service = serviceWith(row(), recordUses);
    await service.authenticate(CLEAR_KEY);
    await settled();
    now.mockReturnValue(1_000_000 + LAST_USED_PRECISION_MS - 1);
    await service.authenticate(CLEAR_KEY);
    await settled();
    expect(recordUses).toHaveBeenCalledTimes(1);
    expect(recordUses).toHaveBeenCalledWith(
      [{ organisationId: 'org-1', id: 'key-1', usedAt: new Date(1_000_000) }],
      expect.anything(),
    );
    now.mockReturnValue(1_000_000 + LAST_USED_PRECISION_MS);
    await service.authenticate(CLEAR_KEY);
    await settled();
    expect(recordUses).toHaveBeenCalledTimes(2);
  });

  it('keeps one write in flight: uses that come meanwhile are written together after it', async () => {
    let finish = () => undefined as void;
    const recordUses = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const service = serviceWith(row(), recordUses);
    await service.authenticate(CLEAR_KEY);
    await settled();
    now.mockReturnValue(1_000_000 + LAST_USED_PRECISION_MS);
    await service.authenticate(CLEAR_KEY);
    await settled();
    expect(recordUses).toHaveBeenCalledTimes(1);
    finish();
    await settled();
    expect(recordUses).toHaveBeenCalledTimes(2);
    expect(recordUses).toHaveBeenLastCalledWith(
      [{ organisationId: 'org-1', id: 'key-1', usedAt: new Date(1_000_000 + LAST_USED_PRECISION_MS) }],
      expect.anything(),
    );
  });

  it('logs a failed write once and still authenticates', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const service = serviceWith(
      row(),
      jest.fn(() => Promise.reject(new Error('database down'))),
    );
    await expect(service.authenticate(CLEAR_KEY)).resolves.toMatchObject({ keyId: 'key-1' });
    await expect(service.authenticate(CLEAR_KEY)).resolves.toMatchObject({ keyId: 'key-1' });
    await settled();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('database down');
  });

  it('tries a failed write again a second later, reporting the run of failures once', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'Date'] });
    try {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const recordUses = jest
        .fn()
        .mockRejectedValueOnce(new Error('lock timeout'))
        .mockRejectedValueOnce(new Error('lock timeout'))
        .mockResolvedValue(undefined);
      const service = serviceWith(row(), recordUses);
      await service.authenticate(CLEAR_KEY);
      await settled();
      for (let retry = 0; retry < 2; retry++) {
        jest.advanceTimersByTime(BOOKKEEPING_RETRY_MS);
        await settled();
      }
      expect(recordUses).toHaveBeenCalledTimes(3);
      expect(recordUses).toHaveBeenLastCalledWith(
        [{ organisationId: 'org-1', id: 'key-1', usedAt: new Date(1_000_000) }],
        expect.anything(),
      );
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses a key once its expiry has passed, even while it is cached', async () => {
    const service = serviceWith(
      row(new Date(1_000_500)),
      jest.fn(() => Promise.resolve()),
    );
    await expect(service.authenticate(CLEAR_KEY)).resolves.not.toBeNull();
    now.mockReturnValue(1_000_500);
    await expect(service.authenticate(CLEAR_KEY)).resolves.toBeNull();
  });
});
