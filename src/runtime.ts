import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppConfig, ConfigError, decodeSecretKey } from './config/config';
import { startEmbeddedDatabase } from './database/embedded-database';

/** Where the process keeps its data: PostgreSQL at DATABASE_URL, or the embedded database in DATA_DIR. */
export interface Runtime {
  config: AppConfig;
  databaseUrl: string;
  poolSize: number;
  embedded: boolean;
  close(): Promise<void>;
}

const POSTGRES_POOL_SIZE = 10;

export async function openRuntime(config: AppConfig): Promise<Runtime> {
  if (config.databaseUrl) {
    return {
      config,
      databaseUrl: config.databaseUrl,
      poolSize: POSTGRES_POOL_SIZE,
      embedded: false,
      close: async () => undefined,
    };
  }
  const webhookSecretKey = config.webhookSecretKey ?? loadOrCreateEmbeddedSecretKey(config.dataDir);
  const database = await startEmbeddedDatabase(config.dataDir);
  return {
    config: { ...config, webhookSecretKey },
    databaseUrl: database.url,
    // PGlite is a single session: one connection, transactions run one after another.
    poolSize: 1,
    embedded: true,
    close: () => database.close(),
  };
}

/** The embedded database keeps the key that encrypts webhook secrets beside its data, made on first start. */
function loadOrCreateEmbeddedSecretKey(dataDir: string): Buffer {
  const path = join(resolve(dataDir), 'webhook-secret.key');
  if (existsSync(path)) {
    const key = decodeSecretKey(readFileSync(path, 'utf8').trim());
    if (!key) throw new ConfigError(path, 'does not hold a 32-byte key');
    return key;
  }
  mkdirSync(resolve(dataDir), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(path, key.toString('hex'), { mode: 0o600 });
  return key;
}
