/**
 * The console's data pages (issue 49) on the seeded data set: how long the production build takes to answer a
 * signed-in person's page in the first organisation (100,000 employees), one request at a time, as a person
 * clicks: the first, a middle and the last page of Employees (50 a page), a search, an employee's page (skills and
 * every skill's rating history) and a position's page (its best candidates ranked among all employees).
 * Needs `npm run bench:seed` and `npm run build` first. Run:
 *
 *   npx ts-node --transpile-only bench/console-pages.ts     BENCH_CONSOLE_REQUESTS (300) per page
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { BENCH_DATABASE_URL, readBenchKeys, serviceEnvironment } from './bench-env';
import { answers, HAS_TASKSET, SERVER_NODE, SERVICE_NODE_OPTIONS, startServer, stop } from './servers';

const ROOT = join(__dirname, '..');
const PORT = Number(process.env.BENCH_CONSOLE_PORT ?? 15510);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const REQUESTS = Number(process.env.BENCH_CONSOLE_REQUESTS ?? 300);
const WARM_UP = 30;
const PASSWORD = 'a long enough bench password';

interface Target {
  name: string;
  path: string;
  /** Text the page must hold: the request measured the page asked for, not an error page. */
  holds: string;
}

async function main(): Promise<void> {
  const entry = join(ROOT, 'dist', 'main.js');
  if (!existsSync(entry)) throw new Error('dist/main.js is missing: run `npm run build` first');
  // The client gets CPU 1, the server CPU 0 (PostgreSQL floats), as bench/run.ts does.
  if (HAS_TASKSET) execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
  const keys = readBenchKeys();
  const organisation = keys.organisations[0];
  // No webhook receiver here, so none of its certificate either.
  const { NODE_EXTRA_CA_CERTS: _receiverCertificate, ...service } = serviceEnvironment(keys);
  const env = { ...service, PORT: String(PORT), PGAPPNAME: 'bench-console', DISPATCH_MODE: 'off' };
  const targets = await targetsOf(organisation.id);
  const server = await startServer('console-service', [...SERVICE_NODE_OPTIONS, entry], env, 0, () =>
    answers(`${ORIGIN}/health/ready`),
  );
  try {
    const cookie = await signIn(organisation.id, env);
    const rows = [];
    for (const target of targets) rows.push({ page: target.name, ...(await measure(target, cookie)) });
    console.table(rows);
  } finally {
    await stop(server);
  }
}

/** The pages measured, in the first organisation: its busiest employee and its first position. */
async function targetsOf(organisationId: string): Promise<Target[]> {
  const client = new Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    const { rows: counts } = await client.query<{ total: number }>(
      `SELECT sum(total)::int AS total FROM organisation_employee_counts WHERE organisation_id = $1`,
      [organisationId],
    );
    const lastPage = Math.ceil(counts[0].total / 50);
    const middle = Math.ceil(lastPage / 2);
    const { rows: employees } = await client.query<{ id: string }>(
      `SELECT ps.employee_id AS id FROM person_skills ps
        WHERE ps.organisation_id = $1
        GROUP BY ps.employee_id ORDER BY count(*) DESC, ps.employee_id LIMIT 1`,
      [organisationId],
    );
    const { rows: positions } = await client.query<{ id: string }>(
      `SELECT id FROM positions WHERE organisation_id = $1 ORDER BY created_at, id LIMIT 1`,
      [organisationId],
    );
    return [
      { name: 'Employees, page 1', path: '/console/employees', holds: 'page 1 of' },
      { name: `Employees, page ${middle}`, path: `/console/employees?page=${middle}`, holds: 'Previous' },
      { name: `Employees, page ${lastPage}`, path: `/console/employees?page=${lastPage}`, holds: 'Previous' },
      { name: 'Employees, search "anna"', path: '/console/employees?search=anna', holds: 'matching' },
      { name: 'an employee', path: `/console/employees/${employees[0].id}`, holds: 'Rating history of' },
      { name: 'a position', path: `/console/positions/${positions[0].id}`, holds: 'Best candidates' },
    ];
  } finally {
    await client.end();
  }
}

/** A viewer invited with the command line (the build's), signed in through their welcome link: its cookie. */
async function signIn(organisationId: string, env: Record<string, string>): Promise<string> {
  const email = `bench-console-${Date.now().toString(36)}@example.com`;
  const invited = execFileSync(
    SERVER_NODE,
    [
      join(ROOT, 'dist', 'cli.js'),
      'user',
      'invite',
      '--org',
      organisationId,
      '--email',
      email,
      '--role',
      'viewer',
      '--json',
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  const { link } = JSON.parse(invited) as { link: string };
  const response = await fetch(`${ORIGIN}${new URL(link).pathname}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: PASSWORD }).toString(),
    redirect: 'manual',
  });
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('console_session='));
  if (response.status !== 303 || !session) throw new Error(`The welcome link answered ${response.status}`);
  return session.split(';')[0];
}

async function measure(target: Target, cookie: string) {
  const timings: number[] = [];
  let bytes = 0;
  for (let index = 0; index < WARM_UP + REQUESTS; index++) {
    const started = performance.now();
    const response = await fetch(`${ORIGIN}${target.path}`, { headers: { Cookie: cookie } });
    const body = await response.text();
    const took = performance.now() - started;
    if (response.status !== 200 || !body.includes(target.holds)) {
      throw new Error(`${target.path} answered ${response.status} without "${target.holds}"`);
    }
    if (index >= WARM_UP) timings.push(took);
    bytes = body.length;
  }
  timings.sort((a, b) => a - b);
  const at = (quantile: number) => Number(timings[Math.ceil(quantile * timings.length) - 1].toFixed(1));
  return { requests: REQUESTS, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1), kib: Math.round(bytes / 1024) };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
