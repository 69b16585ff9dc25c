import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppConfig, ConfigError, decodeSecretKey } from './config/config';
import type * as EmbeddedDatabaseModule from './database/embedded-database';
import { migrate } from './database/migrate';

/** Where the process keeps its data: PostgreSQL at DATABASE_URL, or the embedded database in DATA_DIR. */
export interface Runtime {
  config: AppConfig;
  databaseUrl: string;
  poolSize: number;
  embedded: boolean;
  /** The migrations this process applied as it opened the database (none when it was up to date). */
  appliedMigrations: string[];
  close(): Promise<void>;
}

const POSTGRES_POOL_SIZE = 10;

/** Opens the database (starting the embedded one when there is no DATABASE_URL) and applies pending migrations. */
export async function openRuntime(config: AppConfig): Promise<Runtime> {
  if (config.databaseUrl) {
    return {
      config,
      databaseUrl: config.databaseUrl,
      poolSize: POSTGRES_POOL_SIZE,
      embedded: false,
      // The migration lock is a session's: not through a transaction pooler.
      appliedMigrations: await migrate(config.databaseDirectUrl ?? config.databaseUrl),
      close: async () => undefined,
    };
  }
  const dataDir = usableDataDir(config.dataDir);
  const serviceSecretKey = config.serviceSecretKey ?? loadOrCreateEmbeddedSecretKey(dataDir);
  // Loaded only here: a server on PostgreSQL never reads PGlite, whose code would stay in its heap for good.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startEmbeddedDatabase } = require('./database/embedded-database') as typeof EmbeddedDatabaseModule;
  const database = await startEmbeddedDatabase(dataDir);
  try {
    const appliedMigrations = await migrate(database.url);
    // PGlite is a single session serving one connection: the app's waits for the migrations' to go.
    await database.whenIdle();
    return {
      config: { ...config, serviceSecretKey },
      databaseUrl: database.url,
      poolSize: 1,
      embedded: true,
      appliedMigrations,
      close: () => database.close(),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** DATA_DIR as an absolute path to a directory this process can write, made when missing; else one line naming it. */
function usableDataDir(dataDir: string): string {
  const directory = resolve(dataDir);
  try {
    makeDirectory(directory);
    accessSync(directory, constants.R_OK | constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError('DATA_DIR', `must be a directory this process can write (${directory}: ${reason})`);
  }
  return directory;
}

/**
 * mkdir -p, one level at a time: Node's recursive mkdirSync loops for ever where mkdir answers ENOENT under
 * an existing parent (/proc/x), instead of failing.
 */
function makeDirectory(path: string): void {
  const existing = statSync(path, { throwIfNoEntry: false });
  if (existing?.isDirectory()) return;
  if (existing) throw Object.assign(new Error(`${path} is not a directory`), { code: 'ENOTDIR' });
  const parent = dirname(path);
  if (parent !== path) makeDirectory(parent);
  mkdirSync(path);
}

/**
 * The embedded database keeps the service secret beside its data, made on first start (in the file named for
 * its first use, so data directories of earlier releases keep theirs).
 */
function loadOrCreateEmbeddedSecretKey(dataDir: string): Buffer {
  const path = join(dataDir, 'webhook-secret.key');
  if (existsSync(path)) {
    const key = decodeSecretKey(readFileSync(path, 'utf8').trim());
    if (!key) throw new ConfigError(path, 'does not hold a 32-byte key');
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(path, key.toString('hex'), { mode: 0o600 });
  return key;
}
