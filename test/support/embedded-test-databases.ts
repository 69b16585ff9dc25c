import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedDatabase } from '../../src/database/embedded-database';
import { migrate } from '../../src/database/migrate';
import { startTransactionPooler } from './transaction-pooler';

/** The migrated embedded databases of a run without a PostgreSQL server, one for each Jest worker. */
export interface EmbeddedTestDatabases {
  /** The URL of each worker's, in worker order (JEST_WORKER_ID 1 first). */
  urls: string[];
  close(): Promise<void>;
}

/**
 * Makes `count` embedded databases, migrated, each PGlite behind a transaction pooler of its own. One per worker
 * for the reason a server run gives each worker a copy of its database (worker-database.ts): a dispatcher claims
 * every organisation's deliveries in its database, so a file's dispatcher would send another file's, with its own
 * timeout, while that file counts what its own sent. And one session shared by two workers makes each wait
 * for the other's transactions. The first is made and migrated, then copied: making one (initdb) is the slow part.
 */
export async function startEmbeddedTestDatabases(count: number): Promise<EmbeddedTestDatabases> {
  const root = mkdtempSync(join(tmpdir(), 'skills-test-'));
  const dataDir = (worker: number) => join(root, `w${worker}`);
  const opened: Array<{ close(): Promise<void> }> = [];
  const close = async () => {
    for (const database of opened.reverse()) await database.close();
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const first = await open(dataDir(1));
    try {
      await migrate(first.url);
    } finally {
      await first.close();
    }
    for (let worker = 2; worker <= count; worker++) {
      cpSync(join(dataDir(1), 'pgdata'), join(dataDir(worker), 'pgdata'), { recursive: true });
    }
    const urls: string[] = [];
    for (let worker = 1; worker <= count; worker++) {
      const database = await open(dataDir(worker));
      opened.push(database);
      urls.push(database.url);
    }
    return { urls, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** PGlite in `dataDir` (made when missing), served through a transaction pooler: it is one session. */
async function open(dataDir: string): Promise<{ url: string; close(): Promise<void> }> {
  mkdirSync(dataDir, { recursive: true });
  const embedded = await startEmbeddedDatabase(dataDir);
  try {
    const pooler = await startTransactionPooler(embedded.url);
    return {
      url: pooler.url,
      close: async () => {
        await pooler.close();
        await embedded.close();
      },
    };
  } catch (error) {
    await embedded.close();
    throw error;
  }
}
