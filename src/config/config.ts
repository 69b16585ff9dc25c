export interface AppConfig {
  port: number;
  /** Unset: the embedded database in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
  rateLimitPerMinute: number;
  webhookTimeoutMs: number;
  webhookAllowPrivateNetworks: boolean;
  /** Encrypts webhook secrets at rest; for the embedded database it is generated into dataDir. */
  webhookSecretKey?: Buffer;
  logLevel: string;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(variable: string, requirement: string) {
    super(`Invalid configuration: ${variable} ${requirement}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and checks the environment once, at start; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const read = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);

  const databaseUrl = matching(read, 'DATABASE_URL', /^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL');
  const secretText = read('WEBHOOK_SECRET_KEY');
  const webhookSecretKey = secretText === undefined ? undefined : decodeSecretKey(secretText);
  if (secretText !== undefined && !webhookSecretKey) {
    throw new ConfigError('WEBHOOK_SECRET_KEY', 'must be 32 bytes, written as 64 hex characters or as base64');
  }
  if (databaseUrl && !webhookSecretKey) {
    throw new ConfigError('WEBHOOK_SECRET_KEY', 'is required when DATABASE_URL is set');
  }
  const logLevel = read('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);

  return {
    port: integer(read, 'PORT', 3000, 0, 65535),
    databaseUrl,
    dataDir: read('DATA_DIR') ?? './data',
    redisUrl: matching(read, 'REDIS_URL', /^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL'),
    rateLimitPerMinute: integer(read, 'RATE_LIMIT_PER_MINUTE', 1000, 1),
    webhookTimeoutMs: integer(read, 'WEBHOOK_TIMEOUT_MS', 10000, 1),
    webhookAllowPrivateNetworks: boolean(read, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookSecretKey,
    logLevel,
  };
}

/** 32 bytes as 64 hex characters or as base64; anything else is undefined. */
export function decodeSecretKey(value: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(value)) {
    const key = Buffer.from(value, 'base64');
    if (key.length === 32) return key;
  }
  return undefined;
}

type Reader = (name: string) => string | undefined;

function integer(read: Reader, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = read(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new ConfigError(name, max === Number.MAX_SAFE_INTEGER ? `must be an integer ≥ ${min}` : `must be an integer from ${min} to ${max}`);
  }
  return value;
}

function boolean(read: Reader, name: string, fallback: boolean): boolean {
  const text = read(name);
  if (text === undefined) return fallback;
  if (text !== 'true' && text !== 'false') throw new ConfigError(name, 'must be true or false');
  return text === 'true';
}

function matching(read: Reader, name: string, pattern: RegExp, requirement: string): string | undefined {
  const text = read(name);
  if (text !== undefined && !pattern.test(text)) throw new ConfigError(name, requirement);
  return text;
}
