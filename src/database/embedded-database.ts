import { PGlite } from '@electric-sql/pglite';
import type { btree_gin as BtreeGin } from '@electric-sql/pglite/contrib/btree_gin' with { 'resolution-mode': 'import' };
import type { pg_trgm as PgTrgm } from '@electric-sql/pglite/contrib/pg_trgm' with { 'resolution-mode': 'import' };
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The contrib entry ships only ESM type declarations; `require` loads its CommonJS build.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: typeof PgTrgm };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { btree_gin } = require('@electric-sql/pglite/contrib/btree_gin') as { btree_gin: typeof BtreeGin };

export class EmbeddedDatabaseInUseError extends Error {}

export interface EmbeddedDatabase {
  /** A postgres:// URL on 127.0.0.1 that reaches the embedded database over the wire protocol. */
  url: string;
  close(): Promise<void>;
}

/**
 * Opens the PGlite database in `dataDir` and serves it on a loopback port, so the app talks to it
 * through `pg` exactly as it talks to PostgreSQL. A lock file keeps a second process out.
 */
export async function startEmbeddedDatabase(dataDir: string, maxConnections = 1): Promise<EmbeddedDatabase> {
  const directory = resolve(dataDir);
  mkdirSync(directory, { recursive: true });
  const releaseLock = acquireLock(join(directory, 'embedded.lock'));
  try {
    const db = await PGlite.create({ dataDir: join(directory, 'pgdata'), extensions: { pg_trgm, btree_gin } });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
    await server.start();
    return {
      url: `postgres://postgres@${server.getServerConn()}/postgres`,
      close: async () => {
        await server.stop();
        await db.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

function acquireLock(path: string): () => void {
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8'));
      if (isAlive(holder)) {
        throw new EmbeddedDatabaseInUseError(
          `The embedded database in ${resolve(path, '..')} is in use by another process (pid ${holder}); ` +
            'stop it first, or set DATABASE_URL to use PostgreSQL',
        );
      }
      rmSync(path, { force: true }); // left behind by a process that died
    }
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
