import { ConfigError, decodeSecretKey, loadConfig } from './config';

const HEX_KEY = 'ab'.repeat(32);

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      dispatchMode: 'api',
      databaseUrl: undefined,
      databaseDirectUrl: undefined,
      databaseReplicaUrls: [],
      databaseReplicaMaxLagMs: 1000,
      metricsPort: 0,
      dataDir: './data',
      redisUrl: undefined,
      rateLimitPerMinute: 1000,
      webhookTimeoutMs: 10000,
      webhookAllowPrivateNetworks: false,
      webhookPollIntervalMs: 2000,
      webhookConcurrency: 32,
      webhookEndpointConcurrency: 4,
      eventRetentionDays: 30,
      webhookSecretKey: undefined,
      logLevel: 'info',
      databaseTimeoutMs: 5000,
      databaseStatementTimeoutMs: 15000,
      shutdownDelayMs: 5000,
      shutdownTimeoutMs: 25000,
      httpKeepAliveTimeoutMs: 65000,
      consoleEnabled: true,
      consoleSessionIdleMinutes: 30,
      consoleTrustedProxies: [],
      publicUrl: 'http://localhost:3000',
    });
  });

  it('makes the public URL of the port when PUBLIC_URL is unset', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DISPATCH_MODE: 'worker',
      DATABASE_URL: 'postgres://u@db:5432/skills',
      DATABASE_DIRECT_URL: 'postgres://u@db-direct:5432/skills',
      DATABASE_REPLICA_URLS: 'postgres://u@replica-1:5432/skills, postgres://u@replica-2:5432/skills',
      DATABASE_REPLICA_MAX_LAG_MS: '250',
      METRICS_PORT: '9464',
      DATA_DIR: '/var/lib/skills',
      REDIS_URL: 'redis://cache:6379',
      RATE_LIMIT_PER_MINUTE: '50',
      WEBHOOK_TIMEOUT_MS: '2500',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '100',
      WEBHOOK_CONCURRENCY: '128',
      WEBHOOK_ENDPOINT_CONCURRENCY: '8',
      EVENT_RETENTION_DAYS: '7',
      EMPLOYEE_ERASE_AFTER_DAYS: '365',
      WEBHOOK_SECRET_KEY: HEX_KEY,
      LOG_LEVEL: 'debug',
      DATABASE_TIMEOUT_MS: '1000',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      SHUTDOWN_DELAY_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '3000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '4000',
      CONSOLE_ENABLED: 'false',
      CONSOLE_SESSION_IDLE_MINUTES: '15',
      CONSOLE_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,::1',
      PUBLIC_URL: 'https://skills.example.com/',
    });
    expect(config).toMatchObject({
      databaseTimeoutMs: 1000,
      databaseStatementTimeoutMs: 2000,
      shutdownDelayMs: 0,
      shutdownTimeoutMs: 3000,
      httpKeepAliveTimeoutMs: 4000,
      port: 8080,
      dispatchMode: 'worker',
      databaseUrl: 'postgres://u@db:5432/skills',
      databaseDirectUrl: 'postgres://u@db-direct:5432/skills',
      databaseReplicaUrls: ['postgres://u@replica-1:5432/skills', 'postgres://u@replica-2:5432/skills'],
      databaseReplicaMaxLagMs: 250,
      metricsPort: 9464,
      dataDir: '/var/lib/skills',
      redisUrl: 'redis://cache:6379',
      rateLimitPerMinute: 50,
      webhookTimeoutMs: 2500,
      webhookAllowPrivateNetworks: true,
      webhookPollIntervalMs: 100,
      webhookConcurrency: 128,
      webhookEndpointConcurrency: 8,
      eventRetentionDays: 7,
      employeeEraseAfterDays: 365,
      logLevel: 'debug',
      consoleEnabled: false,
      consoleSessionIdleMinutes: 15,
      consoleTrustedProxies: ['10.0.0.0/8', '127.0.0.1/32', '::1/128'],
      publicUrl: 'https://skills.example.com',
    });
    expect(config.webhookSecretKey).toEqual(Buffer.from(HEX_KEY, 'hex'));
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ CONSOLE_ENABLED: 'yes' }, 'CONSOLE_ENABLED'],
    [{ CONSOLE_SESSION_IDLE_MINUTES: '0' }, 'CONSOLE_SESSION_IDLE_MINUTES'],
    [{ CONSOLE_TRUSTED_PROXIES: '10.0.0.0/33' }, 'CONSOLE_TRUSTED_PROXIES'],
    [{ CONSOLE_TRUSTED_PROXIES: 'proxy.internal' }, 'CONSOLE_TRUSTED_PROXIES'],
    [{ PUBLIC_URL: 'https://skills.example.com/base' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://skills.example.com' }, 'PUBLIC_URL'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x', WEBHOOK_SECRET_KEY: HEX_KEY }, 'DATABASE_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ DATABASE_REPLICA_URLS: 'postgres://u@replica:5432/skills' }, 'DATABASE_REPLICA_URLS'],
    [
      { DATABASE_URL: 'postgres://u@db/s', WEBHOOK_SECRET_KEY: HEX_KEY, DATABASE_REPLICA_URLS: 'replica:5432' },
      'DATABASE_REPLICA_URLS',
    ],
    [{ DATABASE_REPLICA_MAX_LAG_MS: '-1' }, 'DATABASE_REPLICA_MAX_LAG_MS'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ WEBHOOK_TIMEOUT_MS: '1.5' }, 'WEBHOOK_TIMEOUT_MS'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'],
    [{ WEBHOOK_POLL_INTERVAL_MS: '5' }, 'WEBHOOK_POLL_INTERVAL_MS'],
    [{ WEBHOOK_CONCURRENCY: '0' }, 'WEBHOOK_CONCURRENCY'],
    [{ WEBHOOK_CONCURRENCY: 'many' }, 'WEBHOOK_CONCURRENCY'],
    [{ WEBHOOK_ENDPOINT_CONCURRENCY: '0' }, 'WEBHOOK_ENDPOINT_CONCURRENCY'],
    [{ WEBHOOK_ENDPOINT_CONCURRENCY: '1001' }, 'WEBHOOK_ENDPOINT_CONCURRENCY'],
    [{ WEBHOOK_ENDPOINT_CONCURRENCY: 'four' }, 'WEBHOOK_ENDPOINT_CONCURRENCY'],
    [{ DISPATCH_MODE: 'both', DATABASE_URL: 'postgres://u@db/skills', WEBHOOK_SECRET_KEY: HEX_KEY }, 'DISPATCH_MODE'],
    [{ DISPATCH_MODE: 'API', DATABASE_URL: 'postgres://u@db/skills', WEBHOOK_SECRET_KEY: HEX_KEY }, 'DISPATCH_MODE'],
    [{ EVENT_RETENTION_DAYS: '0' }, 'EVENT_RETENTION_DAYS'],
    [{ EVENT_RETENTION_DAYS: '30d' }, 'EVENT_RETENTION_DAYS'],
    [{ EMPLOYEE_ERASE_AFTER_DAYS: '-1' }, 'EMPLOYEE_ERASE_AFTER_DAYS'],
    [{ EMPLOYEE_ERASE_AFTER_DAYS: '1y' }, 'EMPLOYEE_ERASE_AFTER_DAYS'],
    [{ WEBHOOK_SECRET_KEY: 'short' }, 'WEBHOOK_SECRET_KEY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DATABASE_TIMEOUT_MS: '0' }, 'DATABASE_TIMEOUT_MS'],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: 'soon' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
    [{ SHUTDOWN_DELAY_MS: '-1' }, 'SHUTDOWN_DELAY_MS'],
    [{ SHUTDOWN_TIMEOUT_MS: '0' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '1e3' }, 'HTTP_KEEP_ALIVE_TIMEOUT_MS'],
  ])('refuses %p with one line naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it.each(['api', 'off', 'worker'])('accepts DISPATCH_MODE=%s with DATABASE_URL', (mode) => {
    const env = { DISPATCH_MODE: mode, DATABASE_URL: 'postgres://u@db/skills', WEBHOOK_SECRET_KEY: HEX_KEY };
    expect(loadConfig(env).dispatchMode).toBe(mode);
  });

  it.each(['off', 'worker'])('refuses DISPATCH_MODE=%s on the embedded database, which is one process', (mode) => {
    expect(() => loadConfig({ DISPATCH_MODE: mode })).toThrow(
      'Invalid configuration: DISPATCH_MODE must be api without DATABASE_URL: the embedded database serves one process',
    );
  });

  it('refuses DATABASE_URL without WEBHOOK_SECRET_KEY', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db/skills' })).toThrow(
      'Invalid configuration: WEBHOOK_SECRET_KEY is required when DATABASE_URL is set',
    );
  });
});

describe('decodeSecretKey', () => {
  it('accepts 32 bytes as hex or base64 and nothing else', () => {
    const key = Buffer.alloc(32, 7);
    expect(decodeSecretKey(key.toString('hex'))).toEqual(key);
    expect(decodeSecretKey(key.toString('base64'))).toEqual(key);
    expect(decodeSecretKey(Buffer.alloc(16).toString('hex'))).toBeUndefined();
    expect(decodeSecretKey(Buffer.alloc(31).toString('base64'))).toBeUndefined();
  });
});
