import { join } from 'node:path';
import { TEST_SERVICE_SECRET_KEY } from '../support/app';
import { describeIfPostgres } from '../support/requirements';
import { startServer } from '../support/server-process';

const REPORTER = join(__dirname, '..', 'support', 'loaded-packages.js');

/** The packages a server process loaded, from start to exit, with these settings. */
async function packagesLoadedWith(env: NodeJS.ProcessEnv): Promise<string[]> {
  const server = await startServer({
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    SERVICE_SECRET_KEY: TEST_SERVICE_SECRET_KEY,
    NODE_OPTIONS: `--require ${REPORTER}`,
    ...env,
  });
  expect(await server.stop()).toBe(0);
  const line = /^LOADED PACKAGES (.*)$/m.exec(server.stdout());
  if (!line) throw new Error(`the server printed no packages:\n${server.output()}`);
  return JSON.parse(line[1]) as string[];
}

// Code loaded once stays in the heap for good, and V8 lets the heap grow to a multiple of what stays (docs/performance.md,
// run 14): a server loads what only some settings use only when they are set. On a server's database: the embedded one
// is the configuration that loads PGlite.
describeIfPostgres('the packages a server loads', () => {
  it('leaves out PGlite, ioredis and pino-pretty on PostgreSQL, without Redis, writing JSON', async () => {
    const loaded = await packagesLoadedWith({ LOG_FORMAT: 'json' });
    expect(loaded).toEqual(expect.arrayContaining(['@nestjs/core', 'pg', 'typeorm']));
    expect(loaded).not.toContain('@electric-sql/pglite');
    expect(loaded).not.toContain('ioredis');
    expect(loaded).not.toContain('pino-pretty');
  });

  it('loads ioredis with REDIS_URL, and pino-pretty with LOG_FORMAT=pretty', async () => {
    // Loading needs no Redis to answer: the client connects lazily, and the rate limit counts in memory meanwhile.
    const loaded = await packagesLoadedWith({ LOG_FORMAT: 'pretty', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(loaded).toEqual(expect.arrayContaining(['ioredis', 'pino-pretty']));
    expect(loaded).not.toContain('@electric-sql/pglite');
  });
});
