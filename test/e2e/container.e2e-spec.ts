import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/config';
import { createTestApp } from '../support/app';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The Compose Specification's JSON schema, as dclint (a Compose linter) ships it. */
function composeValidator() {
  const schemaPath = join(dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json');
  // Draft-07, ajv's default, which the file names by an https URL that ajv does not know.
  const { $schema: _draft, ...schema } = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;
  return new Ajv({ allErrors: true, strict: false, allowUnionTypes: true }).compile(schema);
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<string, Record<string, any>>;
    volumes: Record<string, unknown>;
  };

  it('follows the Compose Specification', () => {
    const validate = composeValidator();
    const valid = validate(compose);
    expect(valid ? [] : validate.errors).toEqual([]);
    // The schema does refuse what it should: a misspelt key.
    const { healthcheck, ...redis } = compose.services.redis;
    expect(
      validate({ ...compose, services: { ...compose.services, redis: { ...redis, helthcheck: healthcheck } } }),
    ).toBe(false);
  });

  it('runs the service on PostgreSQL 16 and Redis 7, started once they are healthy, with data on a volume', () => {
    const { api, postgres, redis } = compose.services;
    expect(postgres.image).toMatch(/^postgres:16\b/);
    expect(redis.image).toMatch(/^redis:7\b/);
    expect(postgres.healthcheck.test).toEqual(expect.arrayContaining(['pg_isready']));
    expect(redis.healthcheck.test).toEqual(expect.arrayContaining(['redis-cli', 'ping']));
    expect(api.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(api.build).toBe('.');
    expect(api.env_file).toBe('.env');
    expect(api.environment).toMatchObject({
      DATABASE_URL: expect.stringContaining('@postgres:5432/'),
      REDIS_URL: 'redis://redis:6379',
    });
    expect(api.environment).not.toHaveProperty('SERVICE_SECRET_KEY');
    const [volume] = (postgres.volumes as string[])[0].split(':');
    expect(Object.keys(compose.volumes)).toContain(volume);
  });
});

describe('.env.example', () => {
  /** Every variable loadConfig reads, with and without DATABASE_URL. */
  function variablesRead(): Set<string> {
    const names = new Set<string>();
    for (const given of [{}, { DATABASE_URL: 'postgres://x/y', SERVICE_SECRET_KEY: 'ab'.repeat(32) }]) {
      loadConfig(
        new Proxy<NodeJS.ProcessEnv>(given, {
          get: (env, name: string) => {
            names.add(name);
            return env[name];
          },
        }),
      );
    }
    return names;
  }

  it('names every variable the service reads, each commented out with its explanation above it', () => {
    const lines = read('.env.example').split('\n');
    for (const name of variablesRead()) {
      const index = lines.findIndex((line) => line.startsWith(`# ${name}=`));
      expect({ name, listed: index >= 0 }).toEqual({ name, listed: true });
      expect(lines[index - 1]).toMatch(/^#(?! [A-Z_]+=)/);
    }
    expect(lines.filter((line) => line.trim() !== '' && !line.startsWith('#'))).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const baseImage = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1] ?? '';

  it('builds and runs on one Node image pinned by digest, of the major .nvmrc names', () => {
    expect(baseImage).toMatch(/^node:(\d+)[\w.-]*@sha256:[0-9a-f]{64}$/);
    expect(dockerfile.match(/^FROM .*$/gm)).toEqual(['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE}']);
    expect(read('.nvmrc').trim()).toBe(/^node:(\d+)/.exec(baseImage)![1]);
  });

  it('leaves the code owned by root and runs as node, which writes only to /data', () => {
    const runStage = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runStage).toMatch(/^COPY --from=build \/app\/node_modules \.\/node_modules$/m);
    expect(runStage).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runStage).not.toContain('--chown');
    expect(runStage).toMatch(/^RUN mkdir -p \/data && chown node:node \/data$/m);
    expect(runStage).toMatch(/^USER node$/m);
  });

  it('starts the server as npm start does, with its Node.js options', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
    expect(cmd).toEqual(scripts.start.split(' '));
    expect(scripts['start:prod']).toBe(scripts.start);
    expect(cmd).toContain('--max-semi-space-size=16');
  });

  it('keeps install-time telemetry off (scarf, pulled in by swagger-ui-dist)', () => {
    expect((JSON.parse(read('package.json')) as { scarfSettings: unknown }).scarfSettings).toEqual({ enabled: false });
    expect(dockerfile).toMatch(/^ENV SCARF_ANALYTICS=false$/m);
    expect(dockerfile).toMatch(/^RUN npm ci --ignore-scripts /m);
  });

  describe('HEALTHCHECK', () => {
    const command = JSON.parse(/^ {2}CMD (\[.*\])$/m.exec(dockerfile.slice(dockerfile.indexOf('HEALTHCHECK')))![1]) as [
      string,
      ...string[],
    ];
    /** Runs it as Docker would, while this process keeps serving: its exit status. */
    const check = (port: number) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(command[0], command.slice(1), {
          env: { PATH: process.env.PATH, PORT: String(port) },
          stdio: 'ignore',
          timeout: 3000,
        });
        child.once('exit', (code) => resolve(code));
      });
    let app: NestExpressApplication;
    let port: number;

    beforeAll(async () => {
      app = await createTestApp();
      await app.listen(0, '127.0.0.1');
      port = Number(new URL(await app.getUrl()).port);
    });
    afterAll(() => app.close());

    it('passes against a ready service with one request and no second Node process', async () => {
      expect(command[0]).toBe('bash');
      expect(await check(port)).toBe(0);
    });

    it('fails when nothing answers', async () => {
      await app.close();
      expect(await check(port)).not.toBe(0);
      app = await createTestApp();
    });
  });
});
