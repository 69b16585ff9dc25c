import { ConfigError, decodeSecretKey, loadConfig } from './config';

const HEX_KEY = 'ab'.repeat(32);

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      databaseUrl: undefined,
      dataDir: './data',
      redisUrl: undefined,
      rateLimitPerMinute: 1000,
      webhookTimeoutMs: 10000,
      webhookAllowPrivateNetworks: false,
      webhookSecretKey: undefined,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/skills',
      DATA_DIR: '/var/lib/skills',
      REDIS_URL: 'redis://cache:6379',
      RATE_LIMIT_PER_MINUTE: '50',
      WEBHOOK_TIMEOUT_MS: '2500',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_SECRET_KEY: HEX_KEY,
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u@db:5432/skills',
      dataDir: '/var/lib/skills',
      redisUrl: 'redis://cache:6379',
      rateLimitPerMinute: 50,
      webhookTimeoutMs: 2500,
      webhookAllowPrivateNetworks: true,
      logLevel: 'debug',
    });
    expect(config.webhookSecretKey).toEqual(Buffer.from(HEX_KEY, 'hex'));
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x', WEBHOOK_SECRET_KEY: HEX_KEY }, 'DATABASE_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ WEBHOOK_TIMEOUT_MS: '1.5' }, 'WEBHOOK_TIMEOUT_MS'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'],
    [{ WEBHOOK_SECRET_KEY: 'short' }, 'WEBHOOK_SECRET_KEY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('refuses %p with one line naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
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
