/**
 * The benchmark: the production build (`node dist/main.js`, build it first with `npm run build`) and the raw
 * baseline (bench/baseline-server.ts), one after the other on CPU 0, loaded by autocannon from CPU 1, on the
 * database `npm run bench:seed` made. Prints a table and writes bench/results/latest.json.
 *
 * Env: BENCH_DURATION (s per scenario, 15), BENCH_WARMUP (s before each, 3), BENCH_CONNECTIONS ("10,50"),
 *      BENCH_ONLY (regex on scenario names), BENCH_DRAIN_DELIVERIES (20000), BENCH_DATABASE_URL.
 */
import { ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { BENCH_DATABASE_URL, CERT_DIR, readBenchKeys, RESULTS_DIR } from './bench-env';
import { topUpEvents } from './events-seed';
import { Sample, sampleTargets } from './sample';
import { Scenario, SCENARIOS } from './scenarios';
import type { ReceiverStats } from './webhook-receiver';

const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const DRAIN_DELIVERIES = Number(process.env.BENCH_DRAIN_DELIVERIES ?? 20_000);
const SERVICE_PORT = 3900;
const BASELINE_PORT = 3901;
const ROOT = join(__dirname, '..');
const HAS_TASKSET = commandExists('taskset');

interface Row {
  scenario: string;
  target: 'service' | 'baseline';
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  ratioToBaseline: number | null;
}

interface WebhookRow {
  measure: string;
  deliveries: number;
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  badSignatures: number;
}

async function main(): Promise<void> {
  const keys = readBenchKeys();
  const serverEntry = join(ROOT, 'dist', 'main.js');
  if (!existsSync(serverEntry)) throw new Error('dist/main.js is missing: run `npm run build` first');
  if (statSync(join(ROOT, 'src')).mtimeMs > statSync(serverEntry).mtimeMs) {
    console.warn('warning: src/ changed after the last build; run `npm run build` to measure the current code');
  }
  // The load generator and the receiver get CPU 1; the server under test gets CPU 0 (PostgreSQL floats).
  if (HAS_TASKSET) execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
  ensureCertificate();

  await warmDatabaseCache();
  await forgetPendingDeliveries();
  await withClient(topUpEvents);
  const sample = await sampleTargets(BENCH_DATABASE_URL, keys);
  const scenarios = SCENARIOS.filter((scenario) => !ONLY || ONLY.test(scenario.name));
  const receiver = await startReceiver();
  const rows: Row[] = [];
  const webhooks: WebhookRow[] = [];
  try {
    const baselineScenarios = scenarios.filter((scenario) => scenario.baseline);
    if (baselineScenarios.length > 0) {
      const baseline = await startServer(
        'baseline',
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', join(__dirname, 'baseline-server.ts')],
        {
          PORT: String(BASELINE_PORT),
        },
        `http://127.0.0.1:${BASELINE_PORT}/api/v1/employees/00000000-0000-0000-0000-000000000000`,
      );
      try {
        for (const scenario of baselineScenarios)
          rows.push(...(await measure(scenario, 'baseline', BASELINE_PORT, sample)));
      } finally {
        await stop(baseline);
        // The baseline writes outbox rows but sends nothing: they must not reach the service's dispatcher.
        await forgetPendingDeliveries();
      }
    }

    const service = await startServer(
      'service',
      process.execPath,
      [serverEntry],
      {
        PORT: String(SERVICE_PORT),
        DATABASE_URL: BENCH_DATABASE_URL,
        WEBHOOK_SECRET_KEY: keys.webhookSecretKey,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '1000000000',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        NODE_EXTRA_CA_CERTS: join(CERT_DIR, 'cert.pem'),
      },
      `http://127.0.0.1:${SERVICE_PORT}/health/ready`,
    );
    try {
      for (const scenario of scenarios) {
        if (scenario.webhooks && keys.webhookEndpoints.length > 0) {
          for (const connections of CONNECTIONS) {
            await warmUp(scenario, SERVICE_PORT, sample, connections);
            await waitForEmptyOutbox();
            receiver.reset();
            const row = await run(scenario, 'service', SERVICE_PORT, sample, connections, DURATION);
            rows.push(row);
            const expected = Math.round(row.requestsPerSecond * DURATION) * keys.webhookEndpoints.length;
            webhooks.push(
              toWebhookRow(`sustained, from POST rating at ${connections} conn.`, await receiver.settle(expected)),
            );
          }
        } else {
          rows.push(...(await measure(scenario, 'service', SERVICE_PORT, sample)));
        }
      }
      if (keys.webhookEndpoints.length > 0 && DRAIN_DELIVERIES > 0) webhooks.push(...(await drain(receiver)));
    } finally {
      await stop(service);
    }
  } finally {
    receiver.close();
  }

  addRatios(rows);
  const serviceRows = rows.filter((row) => row.target === 'service');
  printTable(rows, webhooks);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const report = {
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, pinned: HAS_TASKSET },
    settings: { durationSeconds: DURATION, warmupSeconds: WARMUP, connections: CONNECTIONS },
    rows,
    webhooks,
    targets: evaluateTargets(serviceRows, webhooks),
  };
  writeFileSync(join(RESULTS_DIR, 'latest.json'), JSON.stringify(report, null, 2));
  console.log('\nTargets (50 connections):');
  for (const target of report.targets)
    console.log(`  ${target.met ? 'met   ' : 'MISSED'} ${target.target}: ${target.measured}`);
  console.log(`\nWritten to ${join(RESULTS_DIR, 'latest.json')}`);
}

async function measure(scenario: Scenario, target: Row['target'], port: number, sample: Sample): Promise<Row[]> {
  const rows: Row[] = [];
  for (const connections of CONNECTIONS) {
    await warmUp(scenario, port, sample, connections);
    rows.push(await run(scenario, target, port, sample, connections, DURATION));
  }
  return rows;
}

async function warmUp(scenario: Scenario, port: number, sample: Sample, connections: number): Promise<void> {
  if (WARMUP > 0) await run(scenario, 'service', port, sample, connections, WARMUP);
}

async function run(
  scenario: Scenario,
  target: Row['target'],
  port: number,
  sample: Sample,
  connections: number,
  duration: number,
): Promise<Row> {
  const next = scenario.requests(sample);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
  });
  // Requests that timed out are still being worked on by the server: let them finish before the next run.
  await waitForQuietDatabase();
  const row: Row = {
    scenario: scenario.name,
    target,
    connections,
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    ratioToBaseline: null,
  };
  if (duration === DURATION) {
    console.log(
      `${target.padEnd(8)} ${scenario.name.padEnd(34)} c=${String(connections).padEnd(3)} ${String(row.requestsPerSecond).padStart(6)} req/s  p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms  errors ${row.errors}`,
    );
  }
  return row;
}

function addRatios(rows: Row[]): void {
  for (const row of rows.filter((candidate) => candidate.target === 'service')) {
    const baseline = rows.find(
      (candidate) =>
        candidate.target === 'baseline' &&
        candidate.scenario === row.scenario &&
        candidate.connections === row.connections,
    );
    if (baseline && baseline.requestsPerSecond > 0) {
      row.ratioToBaseline = Math.round((row.requestsPerSecond / baseline.requestsPerSecond) * 100) / 100;
    }
  }
}

/** Commits a backlog of deliveries in one transaction and times how fast the service's dispatcher sends it. */
async function drain(receiver: Receiver): Promise<WebhookRow[]> {
  await waitForEmptyOutbox();
  const client = new Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    await client.query('BEGIN');
    // Half as many events as deliveries: each goes to both seeded endpoints.
    await client.query(
      `WITH seeded AS (SELECT id, organisation_id FROM webhook_endpoints WHERE url LIKE 'https://127.0.0.1:%'),
       event AS (
         INSERT INTO events (id, organisation_id, event, occurred_at, body, created_at)
         SELECT gen_random_uuid(), organisation.id, 'skill.rated', now(),
                convert_to(json_build_object('event', 'skill.rated', 'timestamp', now(), 'data',
                  json_build_object('employeeId', gen_random_uuid(), 'rating', json_build_object('ratingId', gen_random_uuid(),
                    'score', n % 6, 'ratingType', 'MANAGER_EVALUATION', 'comment', NULL)))::text, 'UTF8'), clock_timestamp()
           FROM (SELECT DISTINCT organisation_id AS id FROM seeded) organisation CROSS JOIN generate_series(1, $1) n
         RETURNING id, organisation_id, created_at
       )
       INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, created_at)
       SELECT gen_random_uuid(), event.organisation_id, seeded.id, event.id, 'skill.rated', event.created_at
         FROM event JOIN seeded USING (organisation_id)`,
      [Math.ceil(DRAIN_DELIVERIES / 2)],
    );
    receiver.reset();
    await client.query('COMMIT');
    receiver.countFrom(Date.now());
    const stats = await receiver.settle(Math.ceil(DRAIN_DELIVERIES / 2) * 2, 120_000);
    const row = toWebhookRow('drain of a committed backlog (from commit, poll included)', stats);
    const spread = stats.firstAt && stats.lastAt ? (stats.lastAt - stats.firstAt) / 1000 : 0;
    return [
      row,
      {
        ...row,
        measure: 'drain, first to last receipt (send rate only)',
        deliveriesPerSecond: spread > 0 ? Math.round(stats.received / spread) : 0,
      },
    ];
  } finally {
    await client.end();
  }
}

function toWebhookRow(measure: string, stats: ReceiverStats & { elapsedMs: number }): WebhookRow {
  const percentile = (p: number) =>
    stats.latencies[Math.min(stats.latencies.length - 1, Math.floor((p / 100) * stats.latencies.length))] ?? 0;
  const row = {
    measure,
    deliveries: stats.received,
    deliveriesPerSecond: stats.elapsedMs > 0 ? Math.round(stats.received / (stats.elapsedMs / 1000)) : 0,
    p50Ms: percentile(50),
    p99Ms: percentile(99),
    badSignatures: stats.badSignatures,
  };
  console.log(
    `webhooks ${measure}: ${row.deliveries} deliveries, ${row.deliveriesPerSecond}/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms`,
  );
  return row;
}

interface Receiver {
  reset(): void;
  /** Latencies and rate from `origin` (epoch ms) rather than from each event's timestamp. */
  countFrom(origin: number): void;
  /** Waits until `expected` deliveries arrived, or none arrived for 5 s, or `timeoutMs` passed. */
  settle(expected: number, timeoutMs?: number): Promise<ReceiverStats & { elapsedMs: number }>;
  close(): void;
}

async function startReceiver(): Promise<Receiver> {
  const child = fork(join(__dirname, 'webhook-receiver.ts'), [], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    cwd: ROOT,
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`webhook receiver exited with ${code}`)));
  });
  const stats = () =>
    new Promise<ReceiverStats>((resolve) => {
      child.once('message', (message: { stats: ReceiverStats }) => resolve(message.stats));
      child.send({ type: 'stats' });
    });
  let resetAt = Date.now();
  return {
    reset() {
      resetAt = Date.now();
      child.send({ type: 'reset' });
    },
    countFrom(origin) {
      resetAt = origin;
      child.send({ type: 'origin', origin });
    },
    async settle(expected, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let last = await stats();
      let lastChange = Date.now();
      while (last.received < expected && Date.now() < deadline && Date.now() - lastChange < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const current = await stats();
        if (current.received !== last.received) lastChange = Date.now();
        last = current;
      }
      return { ...last, elapsedMs: (last.lastAt ?? resetAt) - resetAt };
    },
    close: () => child.kill('SIGTERM'),
  };
}

async function startServer(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
): Promise<ChildProcess> {
  const [file, argv] = HAS_TASKSET ? ['taskset', ['-c', '0', command, ...args]] : [command, args];
  mkdirSync(RESULTS_DIR, { recursive: true });
  const log = openSync(join(RESULTS_DIR, `${name}.log`), 'w');
  const child = spawn(file, argv, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: BENCH_DATABASE_URL, ...env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} before it was ready`);
    const ready = await fetch(readyUrl).then(
      (response) => response.status < 500,
      () => false,
    );
    if (ready) {
      console.log(
        `\n${name} ready (pid ${child.pid}${HAS_TASKSET ? ', CPU 0' : ''}; its log: bench/results/${name}.log)`,
      );
      return child;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  throw new Error(`${name} was not ready within 60 s`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Waits (up to 60 s) until no client query runs on the bench database, seen twice 200 ms apart. */
async function waitForQuietDatabase(): Promise<void> {
  const client = new Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    const deadline = Date.now() + 60_000;
    let quietChecks = 0;
    while (quietChecks < 2 && Date.now() < deadline) {
      const { rows } = await client.query<{ active: number }>(
        `SELECT count(*)::int AS active FROM pg_stat_activity
          WHERE datname = current_database() AND state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      quietChecks = rows[0].active === 0 ? quietChecks + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
}

/** Waits (up to 60 s) until the dispatcher has sent what earlier runs queued, so a measure counts only its own. */
async function waitForEmptyOutbox(): Promise<void> {
  const client = new Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ pending: number }>(
        'SELECT count(*)::int AS pending FROM webhook_deliveries WHERE outcome IS NULL',
      );
      if (rows[0].pending === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await client.end();
  }
}

async function withClient(work: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** Unfinished deliveries (the baseline's, an interrupted run's) would be sent during the next measurement. */
async function forgetPendingDeliveries(): Promise<void> {
  const client = new Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    await client.query('DELETE FROM webhook_deliveries WHERE outcome IS NULL');
  } finally {
    await client.end();
  }
}

/**
 * Reads every table and index of the database once (pg_prewarm 'read': into the OS page cache, since
 * shared_buffers is far smaller than the data), so neither the baseline nor the service, measured first,
 * pays for a cold disk.
 */
async function warmDatabaseCache(): Promise<void> {
  const client = new Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    const started = Date.now();
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    await client.query(
      `SELECT pg_prewarm(c.oid, 'read') FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')`,
    );
    console.log(`database read into the OS cache in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await client.end();
  }
}

function ensureCertificate(): void {
  if (existsSync(join(CERT_DIR, 'cert.pem'))) return;
  mkdirSync(CERT_DIR, { recursive: true });
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '365',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(CERT_DIR, 'key.pem'),
      '-out',
      join(CERT_DIR, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
}

function printTable(rows: Row[], webhooks: WebhookRow[]): void {
  const header = ['scenario', 'target', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'ratio'];
  const lines = rows.map((row) => [
    row.scenario,
    row.target,
    String(row.connections),
    String(row.requestsPerSecond),
    String(row.p50Ms),
    String(row.p99Ms),
    String(row.errors),
    row.ratioToBaseline === null ? '' : row.ratioToBaseline.toFixed(2),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const format = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  console.log(`\n${format(header)}\n| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  for (const line of lines) console.log(format(line));
  if (webhooks.length > 0) {
    console.log(
      '\n| webhook delivery | deliveries | per s | p50 ms | p99 ms | bad signatures |\n| --- | --- | --- | --- | --- | --- |',
    );
    for (const row of webhooks) {
      console.log(
        `| ${row.measure} | ${row.deliveries} | ${row.deliveriesPerSecond} | ${row.p50Ms} | ${row.p99Ms} | ${row.badSignatures} |`,
      );
    }
  }
}

function evaluateTargets(
  rows: Row[],
  webhooks: WebhookRow[],
): Array<{ target: string; measured: string; met: boolean }> {
  const at50 = (name: string) => rows.find((row) => row.scenario === name && row.connections === 50);
  const targets: Array<{ target: string; measured: string; met: boolean }> = [];
  const ratio = (name: string, minimum: number) => {
    const row = at50(name);
    if (row?.ratioToBaseline != null) {
      targets.push({
        target: `${name}: ratio ≥ ${minimum}`,
        measured: row.ratioToBaseline.toFixed(2),
        met: row.ratioToBaseline >= minimum,
      });
    }
  };
  const p99 = (name: string, maximum: number) => {
    const row = at50(name);
    if (row)
      targets.push({
        target: `${name}: p99 ≤ ${maximum} ms`,
        measured: `${row.p99Ms} ms`,
        met: row.p99Ms <= maximum && row.errors === 0,
      });
  };
  ratio('GET employee by id', 0.5);
  ratio('GET employees search, page 1', 0.6);
  ratio('GET employees search, page 500', 0.6);
  ratio('POST rating (+2 outbox rows)', 0.5);
  p99('GET employee by id', 60);
  for (const name of [
    'GET employees, page 1',
    'GET employees, page 500',
    'GET employees search, page 1',
    'GET employees search, page 500',
  ]) {
    p99(name, 150);
  }
  const sustained = webhooks.filter((row) => row.measure.startsWith('sustained'));
  const best = Math.max(0, ...webhooks.map((row) => row.deliveriesPerSecond));
  if (webhooks.length > 0) {
    targets.push({ target: 'webhook deliveries ≥ 2000/s (best measure)', measured: `${best}/s`, met: best >= 2000 });
  }
  for (const row of sustained) {
    targets.push({
      target: `webhook commit-to-receipt p99 ≤ 1000 ms (${row.measure})`,
      measured: row.deliveries > 0 ? `${row.p99Ms} ms` : 'nothing delivered',
      met: row.deliveries > 0 && row.p99Ms <= 1000 && row.badSignatures === 0,
    });
  }
  return targets;
}

function commandExists(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
