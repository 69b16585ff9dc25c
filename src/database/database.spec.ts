import type { DataSource, EntityManager } from 'typeorm';
import { Database } from './database';

/** A DataSource whose transactions hand `work` a fresh manager and record when they commit. */
function fakeDataSource(log: string[]): DataSource {
  return {
    manager: { pool: true } as unknown as EntityManager,
    transaction: async <T>(work: (manager: EntityManager) => Promise<T>): Promise<T> => {
      const result = await work({} as EntityManager);
      log.push('COMMIT');
      return result;
    },
  } as unknown as DataSource;
}

describe('Database', () => {
  it('runs after-commit callbacks once each, after the commit, and knows its running transactions', async () => {
    const log: string[] = [];
    const database = new Database(fakeDataSource(log));
    const announce = () => log.push('announce');
    let inside!: EntityManager;
    await database.transaction(async (manager) => {
      inside = manager;
      expect(database.inTransaction(manager)).toBe(true);
      database.afterCommit(manager, announce);
      database.afterCommit(manager, announce);
      // A service called with the transaction joins it: its callbacks wait for the same commit.
      await database.transaction(async (joined) => database.afterCommit(joined, () => log.push('joined')), {
        transaction: manager,
      });
      log.push('work done');
    });
    expect(log).toEqual(['work done', 'COMMIT', 'announce', 'joined']);
    expect(database.inTransaction(inside)).toBe(false);
  });

  it('drops the callbacks of a transaction that rolls back', async () => {
    const log: string[] = [];
    const database = new Database(fakeDataSource(log));
    const failing = database.transaction(async (manager) => {
      database.afterCommit(manager, () => log.push('announce'));
      throw new Error('the change fails');
    });
    await expect(failing).rejects.toThrow('the change fails');
    expect(log).toEqual([]);
  });

  it('runs a callback at once for the pool, and refuses to join a transaction that has ended', async () => {
    const database = new Database(fakeDataSource([]));
    const callback = jest.fn();
    database.afterCommit(database.manager(), callback);
    expect(callback).toHaveBeenCalledTimes(1);
    let ended!: EntityManager;
    await database.transaction(async (manager) => void (ended = manager));
    await expect(database.transaction(async () => 'joined', { transaction: ended })).rejects.toThrow(
      'The outer transaction has ended',
    );
  });
});
