import type { DataSource, EntityManager } from 'typeorm';
import { Database } from './database';

/**
 * A DataSource whose query runners hand out a fresh manager and log each statement and transaction step when it
 * is sent, answering it on a later tick; statements `failing` matches fail, and a COMMIT after one rolls back.
 */
function fakeDataSource(log: string[], failing?: RegExp): DataSource {
  return {
    manager: { pool: true } as unknown as EntityManager,
    createQueryRunner: () => {
      let failed = false;
      let open = false;
      const answer = (text: string) => {
        log.push(text);
        return new Promise((resolve, reject) =>
          setImmediate(() => {
            if (!failing?.test(text)) return resolve({ rows: [{ answered: text }] });
            failed = true;
            reject(new Error(`${text} failed`));
          }),
        );
      };
      return {
        manager: {} as EntityManager,
        connect: async () => ({ query: answer }),
        startTransaction: async () => {
          open = true;
          await answer('START TRANSACTION');
        },
        commitTransaction: async () => {
          await answer('COMMIT');
          if (failed) log.push('(rolled back)');
          open = false;
        },
        rollbackTransaction: async () => {
          if (!open) throw new Error('Transaction is not started yet');
          await answer('ROLLBACK');
          open = false;
        },
        release: async () => void log.push('release'),
      };
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
    expect(log).toEqual(['START TRANSACTION', 'work done', 'COMMIT', 'announce', 'joined', 'release']);
    expect(database.inTransaction(inside)).toBe(false);
  });

  it('sends the statements held for the commit with it, in order, and hands their rows on once it commits', async () => {
    const log: string[] = [];
    const database = new Database(fakeDataSource(log));
    await database.transaction(async (manager) => {
      database.afterCommit(manager, () => log.push('announce'));
      database.sendWithCommit(manager, { text: 'INSERT event', values: [] }, (rows) => log.push(JSON.stringify(rows)));
      database.sendWithCommit(manager, { text: 'INSERT kept', values: [] });
      log.push('work done');
    });
    expect(log).toEqual([
      'START TRANSACTION',
      'work done',
      'INSERT event',
      'INSERT kept',
      'COMMIT',
      '[{"answered":"INSERT event"}]',
      'announce',
      'release',
    ]);

    const failed: string[] = [];
    const failing = new Database(fakeDataSource(failed, /^INSERT kept$/));
    const attempt = failing.transaction(async (manager) => {
      failing.afterCommit(manager, () => failed.push('announce'));
      failing.sendWithCommit(manager, { text: 'INSERT kept', values: [] }, () => failed.push('rows'));
    });
    await expect(attempt).rejects.toThrow('INSERT kept failed');
    expect(failed).toEqual(['START TRANSACTION', 'INSERT kept', 'COMMIT', '(rolled back)', 'release']);
  });

  it('lets the rows of held statements register after-commit callbacks, each run once', async () => {
    const log: string[] = [];
    const database = new Database(fakeDataSource(log));
    const announce = () => log.push('announce');
    await database.transaction(async (manager) => {
      for (const text of ['INSERT event 1', 'INSERT event 2']) {
        database.sendWithCommit(manager, { text, values: [] }, () => database.afterCommit(manager, announce));
      }
    });
    expect(log).toEqual(['START TRANSACTION', 'INSERT event 1', 'INSERT event 2', 'COMMIT', 'announce', 'release']);
  });

  it('drops the callbacks of a transaction that rolls back', async () => {
    const log: string[] = [];
    const database = new Database(fakeDataSource(log));
    const failing = database.transaction(async (manager) => {
      database.afterCommit(manager, () => log.push('announce'));
      throw new Error('the change fails');
    });
    await expect(failing).rejects.toThrow('the change fails');
    expect(log).toEqual(['START TRANSACTION', 'ROLLBACK', 'release']);
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
    expect(() => database.sendWithCommit(ended, { text: 'INSERT late', values: [] })).toThrow(
      'A statement sent with COMMIT needs a running transaction',
    );
  });
});
