import ipaddr from 'ipaddr.js';

/**
 * Where webhook deliveries are sent from: `api` serves HTTP and dispatches (one process does everything);
 * `off` serves HTTP and leaves sending and pruning to workers; `worker` opens no HTTP port and only dispatches.
 */
export type DispatchMode = 'api' | 'off' | 'worker';

export interface AppConfig {
  port: number;
  dispatchMode: DispatchMode;
  /** Unset: the embedded database in dataDir. */
  databaseUrl?: string;
  /**
   * A connection that is a session of its own (not through a transaction pooler such as PgBouncer), for what
   * needs one: the workers' LISTEN and the migration lock. Unset: databaseUrl.
   */
  databaseDirectUrl?: string;
  /** Streaming standbys of the primary that GETs under /api/v1 may read on (README "Read replicas"); empty: none. */
  databaseReplicaUrls: string[];
  /** A read without X-Consistency-Token goes to a replica at most this far behind the primary, else the primary. */
  databaseReplicaMaxLagMs: number;
  /** Where Prometheus scrapes /metrics; 0: no metrics listener. */
  metricsPort: number;
  dataDir: string;
  redisUrl?: string;
  rateLimitPerMinute: number;
  webhookTimeoutMs: number;
  webhookAllowPrivateNetworks: boolean;
  /** How often the dispatcher looks for deliveries that no nudge announced (other instances, the CLI, crashes). */
  webhookPollIntervalMs: number;
  /** How many deliveries one dispatching process sends at once. */
  webhookConcurrency: number;
  /** How many deliveries to one endpoint are in flight at once, across every dispatching process. */
  webhookEndpointConcurrency: number;
  /** How long events (and their deliveries) are kept for GET /events and redelivery. */
  eventRetentionDays: number;
  /** Employees who left more than this many days ago are erased by the retention job; unset: never. */
  employeeEraseAfterDays?: number;
  /** Encrypts webhook secrets at rest; for the embedded database it is generated into dataDir. */
  webhookSecretKey?: Buffer;
  logLevel: string;
  /** Longest wait to connect, or for a free pooled connection; past it a request answers 503. */
  databaseTimeoutMs: number;
  /** Longest a statement may run; past it a request answers 503. */
  databaseStatementTimeoutMs: number;
  /** On SIGTERM, how long the instance keeps serving (with `Connection: close`) before it stops accepting. */
  shutdownDelayMs: number;
  /** The instance exits no later than this after the signal, whatever clients keep open. */
  shutdownTimeoutMs: number;
  /** How long an idle kept-alive connection stays open: longer than common balancers' idle timeouts. */
  httpKeepAliveTimeoutMs: number;
  /** Unset: pretty when stdout is a terminal, else JSON lines. */
  logFormat?: 'json' | 'pretty';
  /** Whether /console serves the Settings pages; false: every /console path is 404. */
  consoleEnabled: boolean;
  /** A console session unused this long ends (it ends 12 h after sign-in in any case). */
  consoleSessionIdleMinutes: number;
  /**
   * Addresses (IPs or CIDR ranges) of the proxies in front of the service whose X-Forwarded-Proto and
   * X-Forwarded-For the console believes; empty: none, the connection itself says.
   */
  consoleTrustedProxies: string[];
  /** The origin people reach the service at (welcome links, the SSO callback); no path. */
  publicUrl: string;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(variable: string, requirement: string) {
    super(`Invalid configuration: ${variable} ${requirement}`);
  }
}

const DISPATCH_MODES: DispatchMode[] = ['api', 'off', 'worker'];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and checks the environment once, at start; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const read = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);

  const databaseUrl = matching(
    read,
    'DATABASE_URL',
    /^postgres(ql)?:\/\/.+/,
    'must be a postgres:// or postgresql:// URL',
  );
  const databaseDirectUrl = matching(
    read,
    'DATABASE_DIRECT_URL',
    /^postgres(ql)?:\/\/.+/,
    'must be a postgres:// or postgresql:// URL',
  );
  if (databaseDirectUrl && !databaseUrl) throw new ConfigError('DATABASE_DIRECT_URL', 'needs DATABASE_URL');
  const databaseReplicaUrls = postgresUrls(read, 'DATABASE_REPLICA_URLS');
  if (databaseReplicaUrls.length > 0 && !databaseUrl) {
    throw new ConfigError('DATABASE_REPLICA_URLS', 'needs DATABASE_URL: the embedded database has no replicas');
  }
  const secretText = read('WEBHOOK_SECRET_KEY');
  const webhookSecretKey = secretText === undefined ? undefined : decodeSecretKey(secretText);
  if (secretText !== undefined && !webhookSecretKey) {
    throw new ConfigError('WEBHOOK_SECRET_KEY', 'must be 32 bytes, written as 64 hex characters or as base64');
  }
  if (databaseUrl && !webhookSecretKey) {
    throw new ConfigError('WEBHOOK_SECRET_KEY', 'is required when DATABASE_URL is set');
  }
  const dispatchMode = (read('DISPATCH_MODE') ?? 'api') as DispatchMode;
  if (!DISPATCH_MODES.includes(dispatchMode)) {
    throw new ConfigError('DISPATCH_MODE', `must be one of ${DISPATCH_MODES.join(', ')}`);
  }
  if (!databaseUrl && dispatchMode !== 'api') {
    throw new ConfigError(
      'DISPATCH_MODE',
      'must be api without DATABASE_URL: the embedded database serves one process',
    );
  }
  const logLevel = read('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = read('LOG_FORMAT');
  if (logFormat !== undefined && logFormat !== 'json' && logFormat !== 'pretty') {
    throw new ConfigError('LOG_FORMAT', 'must be json or pretty');
  }

  const port = integer(read, 'PORT', 3000, 0, 65535);
  const metricsPort = integer(read, 'METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== 0 && metricsPort === port) throw new ConfigError('METRICS_PORT', 'must differ from PORT');

  return {
    port,
    dispatchMode,
    databaseUrl,
    databaseDirectUrl,
    databaseReplicaUrls,
    databaseReplicaMaxLagMs: integer(read, 'DATABASE_REPLICA_MAX_LAG_MS', 1000, 0),
    metricsPort,
    dataDir: read('DATA_DIR') ?? './data',
    redisUrl: matching(read, 'REDIS_URL', /^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL'),
    rateLimitPerMinute: integer(read, 'RATE_LIMIT_PER_MINUTE', 1000, 1),
    webhookTimeoutMs: integer(read, 'WEBHOOK_TIMEOUT_MS', 10000, 1),
    webhookAllowPrivateNetworks: boolean(read, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookPollIntervalMs: integer(read, 'WEBHOOK_POLL_INTERVAL_MS', 2000, 10, 3_600_000),
    webhookConcurrency: integer(read, 'WEBHOOK_CONCURRENCY', 32, 1, 1000),
    webhookEndpointConcurrency: integer(read, 'WEBHOOK_ENDPOINT_CONCURRENCY', 4, 1, 1000),
    eventRetentionDays: integer(read, 'EVENT_RETENTION_DAYS', 30, 1, 3650),
    employeeEraseAfterDays:
      read('EMPLOYEE_ERASE_AFTER_DAYS') === undefined
        ? undefined
        : integer(read, 'EMPLOYEE_ERASE_AFTER_DAYS', 0, 0, 36500),
    webhookSecretKey,
    logLevel,
    databaseTimeoutMs: integer(read, 'DATABASE_TIMEOUT_MS', 5000, 1),
    databaseStatementTimeoutMs: integer(read, 'DATABASE_STATEMENT_TIMEOUT_MS', 15000, 1),
    shutdownDelayMs: integer(read, 'SHUTDOWN_DELAY_MS', 5000, 0),
    shutdownTimeoutMs: integer(read, 'SHUTDOWN_TIMEOUT_MS', 25000, 1),
    httpKeepAliveTimeoutMs: integer(read, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65000, 1),
    logFormat,
    consoleEnabled: boolean(read, 'CONSOLE_ENABLED', true),
    consoleSessionIdleMinutes: integer(read, 'CONSOLE_SESSION_IDLE_MINUTES', 30, 1, 720),
    consoleTrustedProxies: addressRanges(read, 'CONSOLE_TRUSTED_PROXIES'),
    publicUrl: publicOrigin(read, port),
  };
}

/**
 * How long a webhook delivery's claim lasts: longer than any send (WEBHOOK_TIMEOUT_MS) by a margin, so a claim
 * older than this belongs to a dispatcher that died mid-send; the delivery is sent again, and no longer counts
 * as in flight to its endpoint.
 */
export function webhookClaimLifetimeMs(config: Pick<AppConfig, 'webhookTimeoutMs'>): number {
  return config.webhookTimeoutMs + 30_000;
}

/** A listening port this process cannot have, as one line naming its variable (other errors as they are). */
export function unbindablePortError(variable: string, port: number, error: NodeJS.ErrnoException): Error {
  if (error.code === 'EADDRINUSE') return new ConfigError(variable, `${port} is already in use by another process`);
  if (error.code === 'EACCES') return new ConfigError(variable, `${port} may not be bound by this process`);
  return error;
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
    throw new ConfigError(
      name,
      max === Number.MAX_SAFE_INTEGER ? `must be an integer ≥ ${min}` : `must be an integer from ${min} to ${max}`,
    );
  }
  return value;
}

function boolean(read: Reader, name: string, fallback: boolean): boolean {
  const text = read(name);
  if (text === undefined) return fallback;
  if (text !== 'true' && text !== 'false') throw new ConfigError(name, 'must be true or false');
  return text === 'true';
}

/** A comma-separated list of IP addresses and CIDR ranges, each kept as a CIDR range. */
function addressRanges(read: Reader, name: string): string[] {
  const text = read(name);
  if (text === undefined) return [];
  return text.split(',').map((entry) => {
    const trimmed = entry.trim();
    if (ipaddr.isValid(trimmed)) {
      const address = ipaddr.parse(trimmed);
      return `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`;
    }
    try {
      const [address, bits] = ipaddr.parseCIDR(trimmed);
      return `${address.toString()}/${bits}`;
    } catch {
      throw new ConfigError(name, `must be IP addresses or CIDR ranges, comma-separated; got "${trimmed}"`);
    }
  });
}

/** PUBLIC_URL as an origin (http or https, host, port; no path): by default http://localhost:PORT. */
function publicOrigin(read: Reader, port: number): string {
  const text = read('PUBLIC_URL');
  if (text === undefined) return `http://localhost:${port}`;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(
      'PUBLIC_URL',
      'must be an http:// or https:// URL with no path, e.g. https://skills.example.com',
    );
  }
  return url.origin;
}

/** A comma-separated list of postgres:// URLs; unset: none. */
function postgresUrls(read: Reader, name: string): string[] {
  const text = read(name);
  if (text === undefined) return [];
  const urls = text.split(',').map((entry) => entry.trim());
  if (urls.some((url) => !/^postgres(ql)?:\/\/.+/.test(url))) {
    throw new ConfigError(name, 'must be postgres:// or postgresql:// URLs, comma-separated');
  }
  return urls;
}

function matching(read: Reader, name: string, pattern: RegExp, requirement: string): string | undefined {
  const text = read(name);
  if (text !== undefined && !pattern.test(text)) throw new ConfigError(name, requirement);
  return text;
}
