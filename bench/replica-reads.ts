/**
 * GET /employees/{id} read through a streaming replica against the same read on the primary (issue 48): the
 * production build twice on one database, one server with DATABASE_REPLICA_URLS (and a lag limit no pause here
 * reaches, so every read goes to the replica), one without; autocannon alternates between them, BENCH_ROUNDS each.
 * On one machine this measures what the routing costs, not what a replica adds in capacity.
 *
 * Needs `npm run build`, PostgreSQL at BENCH_PRIMARY_URL's server and a streaming replica of it at
 * BENCH_REPLICA_HOST (scripts/replica.sh start <dir> 5433). The database BENCH_PRIMARY_URL names is made anew.
 *
 * Env: BENCH_PRIMARY_URL (postgres://postgres@127.0.0.1:5432/skills_bench_replica), BENCH_REPLICA_HOST
 *      (127.0.0.1:5433), BENCH_DURATION (s per round, 10), BENCH_ROUNDS (2), BENCH_CONNECTIONS (10).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { answers, startServer, stop } from './servers';

const PRIMARY_URL = process.env.BENCH_PRIMARY_URL ?? 'postgres://postgres@127.0.0.1:5432/skills_bench_replica';
const REPLICA_HOST = process.env.BENCH_REPLICA_HOST ?? '127.0.0.1:5433';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECRET_KEY = 'ab'.repeat(32);
const ROOT = join(__dirname, '..');

async function recreateDatabase(): Promise<void> {
  const admin = new URL(PRIMARY_URL);
  const name = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

function cli(...args: string[]): Record<string, unknown> {
  const output = execFileSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: PRIMARY_URL, WEBHOOK_SECRET_KEY: SECRET_KEY, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  return JSON.parse(output) as Record<string, unknown>;
}

async function main(): Promise<void> {
  await recreateDatabase();
  const replicaUrl = new URL(PRIMARY_URL);
  replicaUrl.host = REPLICA_HOST;
  cli('db', 'migrate');
  const organisation = cli('org', 'create', 'Bench') as { id: string };
  const { key } = cli('api-key', 'create', '--org', organisation.id, '--name', 'bench') as { key: string };
  const common = {
    DATABASE_URL: PRIMARY_URL,
    WEBHOOK_SECRET_KEY: SECRET_KEY,
    DISPATCH_MODE: 'off',
    LOG_LEVEL: 'warn',
    // The rate limit is not what is measured.
    RATE_LIMIT_PER_MINUTE: '100000000',
  };
  const servers = {
    primary: { port: 3910, env: { ...common, PORT: '3910', METRICS_PORT: '9470' } },
    replica: {
      port: 3911,
      env: {
        ...common,
        PORT: '3911',
        METRICS_PORT: '9471',
        DATABASE_REPLICA_URLS: replicaUrl.toString(),
        DATABASE_REPLICA_MAX_LAG_MS: '600000',
      },
    },
  };
  const started = await Promise.all(
    Object.entries(servers).map(([name, { port, env }]) =>
      startServer(`replica-bench-${name}`, ['dist/main.js'], env, 0, () =>
        answers(`http://127.0.0.1:${port}/health/ready`),
      ),
    ),
  );
  try {
    const created = await fetch(`http://127.0.0.1:${servers.primary.port}/api/v1/employees`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        personnelNumber: 'B-1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        businessEmail: 'ada@example.com',
      }),
    });
    const { data } = (await created.json()) as { data: { id: string } };
    const path = `/api/v1/employees/${data.id}`;
    // Until the replica has it (and the server has checked the replica).
    for (let tries = 0; ; tries++) {
      const response = await fetch(`http://127.0.0.1:${servers.replica.port}${path}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      if (response.status === 200) break;
      if (tries > 100) throw new Error(`the replica server answers ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const results: Record<string, Array<{ rps: number; p50: number; p99: number; non2xx: number }>> = {
      primary: [],
      replica: [],
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, { port }] of Object.entries(servers)) {
        const result = await autocannon({
          url: `http://127.0.0.1:${port}${path}`,
          headers: { authorization: `Bearer ${key}` },
          connections: CONNECTIONS,
          duration: DURATION,
        });
        results[name].push({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
        });
        console.log(
          `round ${round + 1} ${name}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, ` +
            `p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
        );
      }
    }
    const metrics = await (await fetch('http://127.0.0.1:9471/metrics')).text();
    console.log(
      metrics
        .split('\n')
        .filter((line) => line.startsWith('db_reads_total'))
        .join('\n'),
    );
    const mean = (name: string) => results[name].reduce((sum, { rps }) => sum + rps, 0) / results[name].length;
    console.log(
      `GET employee by id: primary ${mean('primary').toFixed(0)} req/s, through the replica ` +
        `${mean('replica').toFixed(0)} req/s (${((mean('replica') / mean('primary') - 1) * 100).toFixed(1)} %)`,
    );
  } finally {
    await Promise.all(started.map((child) => stop(child)));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
