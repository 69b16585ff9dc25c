import { join, resolve } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import type { btree_gin as BtreeGin } from '@electric-sql/pglite/contrib/btree_gin' with {
  'resolution-mode': 'import',
};
import type { pg_trgm as PgTrgm } from '@electric-sql/pglite/contrib/pg_trgm' with { 'resolution-mode': 'import' };
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { acquireEmbeddedLock } from './embedded-lock';

// The contrib entry ships only ESM type declarations; `require` loads its CommonJS build.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: typeof PgTrgm };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { btree_gin } = require('@electric-sql/pglite/contrib/btree_gin') as { btree_gin: typeof BtreeGin };

export interface EmbeddedDatabase {
  /** A postgres:// URL on 127.0.0.1 that reaches the embedded database over the wire protocol. */
  url: string;
  /** Resolves once no client is connected: the one session is free for the next (migrations, then the app). */
  whenIdle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the PGlite database in the existing directory `dataDir` and serves it on a loopback port, so the app
 * talks to it through `pg` exactly as it talks to PostgreSQL. A lock file keeps a second process out.
 */
export async function startEmbeddedDatabase(dataDir: string, maxConnections = 1): Promise<EmbeddedDatabase> {
  const directory = resolve(dataDir);
  const releaseLock = acquireEmbeddedLock(join(directory, 'embedded.lock'));
  try {
    const db = await PGlite.create({ dataDir: join(directory, 'pgdata'), extensions: { pg_trgm, btree_gin } });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
    await server.start();
    return {
      url: `postgres://postgres@${server.getServerConn()}/postgres`,
      whenIdle: async () => {
        while (server.getStats().activeConnections > 0) await setTimeout(10);
      },
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
