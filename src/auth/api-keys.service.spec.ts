import { Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Database } from '../database/database';
import { hashApiKey } from './api-key-hash';
import { ActiveApiKey, ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService, LAST_USED_PRECISION_MS } from './api-keys.service';

const CLEAR_KEY = 'sk_test';

function serviceWith(row: ActiveApiKey, recordUse: jest.Mock) {
  const repository = {
    findActiveByHash: jest.fn((hash: string) => Promise.resolve(hash === hashApiKey(CLEAR_KEY) ? row : null)),
    recordUse,
  };
  return new ApiKeysService(repository as unknown as ApiKeysRepository, {} as Database, new EventEmitter2());
}

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
  afterEach(() => jest.restoreAllMocks());

  it('records a use at most once a minute per key, without waiting for it', async () => {
    const recordUse = jest.fn(() => new Promise<void>(() => undefined));
    const service = serviceWith(row(), recordUse);
    await service.authenticate(CLEAR_KEY);
    now.mockReturnValue(1_000_000 + LAST_USED_PRECISION_MS - 1);
    await service.authenticate(CLEAR_KEY);
    expect(recordUse).toHaveBeenCalledTimes(1);
    expect(recordUse).toHaveBeenCalledWith('org-1', 'key-1', new Date(1_000_000));
    now.mockReturnValue(1_000_000 + LAST_USED_PRECISION_MS);
    await service.authenticate(CLEAR_KEY);
    expect(recordUse).toHaveBeenCalledTimes(2);
  });

  it('logs a failed write once and still authenticates', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const service = serviceWith(
      row(),
      jest.fn(() => Promise.reject(new Error('database down'))),
    );
    await expect(service.authenticate(CLEAR_KEY)).resolves.toMatchObject({ keyId: 'key-1' });
    await expect(service.authenticate(CLEAR_KEY)).resolves.toMatchObject({ keyId: 'key-1' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('database down');
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
