/**
 * Instructions per request of one or more builds of the service under one scenario, counted by valgrind's
 * callgrind: unlike CPU time and req/s, an instruction count does not depend on what else the machine runs, so
 * it measures a change to the request path on a loaded machine. Rounds still differ (by up to 30 % with 1,000
 * requests counted: a mark-compact falls in the counted window or not, V8 compiles a function sooner or later),
 * so compare builds within a round, and count more requests for a smaller change. Each build serves WARMUP requests (so V8 has
 * compiled the hot path), then callgrind counts the instructions of every thread of the process (the collector's
 * included) over COUNT more, and the count is divided by COUNT. Metrics on, no dispatcher, as compare-builds.ts. The figure is valgrind's simulated CPU, so
 * compare builds with each other, not with CPU time.
 *
 *   npx ts-node --transpile-only bench/instructions.ts "POST employee" bench/tmp/before dist
 *   npx ts-node --transpile-only bench/instructions.ts "POST employee|PATCH employee" dist stack floor
 *
 * Several scenarios, separated by `|`, are counted one after the other, each in a process of its own.
 * `stack`, `floor` and `baseline` are the references (bench/servers.ts), compiled; `npm run bench` counts
 * the service, the stack floor and the framework floor this way (countInstructions) after its load runs.
 * INSTRUCTIONS_JITLESS=1 runs the servers with `--jitless` (V8's interpreter only): a quarter of a count with the
 * compilers is V8 compiling inside the counted window, sooner or later from run to run; without them, what is
 * counted is the requests' own work (and the collector's), for comparing two builds' work on a route.
 * Env: INSTRUCTIONS_WARMUP (3000), INSTRUCTIONS_COUNT (1000), INSTRUCTIONS_CONNECTIONS (4), INSTRUCTIONS_ROUNDS (2),
 * INSTRUCTIONS_PORT (3921; another for a count beside it: at most one count per core, see PORT),
 * BENCH_NODE (24: the image's Node.js 24, as bench/run.ts). Prints each round, then each build's mean and its
 * difference to the first build's. Needs valgrind and the bench seed (`npm run bench:seed`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DATABASE_URL, readBenchKeys, serviceEnvironment } from './bench-env';
import { sampleTargets } from './sample';
import { BenchRequest, SCENARIOS } from './scenarios';
import { answers, SERVER_NODE, SERVER_NODE_VERSION, serverArgs, stop } from './servers';

const WARMUP = Number(process.env.INSTRUCTIONS_WARMUP ?? 3000);
const COUNT = Number(process.env.INSTRUCTIONS_COUNT ?? 1000);
const CONNECTIONS = Number(process.env.INSTRUCTIONS_CONNECTIONS ?? 4);
const ROUNDS = Number(process.env.INSTRUCTIONS_ROUNDS ?? 2);
const JITLESS = process.env.INSTRUCTIONS_JITLESS === '1';
/**
 * Several counts may run side by side, each on its own port (its metrics on PORT + 5550), but no more than the
 * machine has cores: on 2 cores, five counts of one build made two at a time agreed within ±2 %, while counts made
 * four at a time read up to 1.9 × as much for the service (not for the stack floor): likely its work that runs by the
 * clock rather than by the request (timers, the key cache's refresh) piling up over a longer window.
 */
const PORT = Number(process.env.INSTRUCTIONS_PORT ?? 3921);

/** Sends `total` requests, `CONNECTIONS` at a time; a non-2xx answer stops the run, as it would skew the count. */
async function send(total: number, next: () => BenchRequest): Promise<void> {
  let left = total;
  const worker = async () => {
    while (left-- > 0) {
      const { method, path, headers, body } = next();
      const request = () => fetch(`http://127.0.0.1:${PORT}${path}`, { method, headers, body });
      // Under valgrind a kept-alive socket may pass the server's idle timeout as it is reused: the request never
      // reached it, so it is sent again on a new one.
      const response = await request().catch((error: { cause?: { code?: string } }) => {
        if (error.cause?.code !== 'ECONNRESET') throw error;
        return request();
      });
      await response.arrayBuffer();
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

/** The instructions callgrind counted in its dump files (the summary line of each), all threads together. */
function countedInstructions(directory: string): number {
  return readdirSync(directory)
    .map((file) => /^summary: (\d+)/m.exec(readFileSync(join(directory, file), 'utf8'))?.[1])
    .reduce((sum, count) => sum + Number(count ?? 0), 0);
}

/** One scenario's requests, by the scenario's name. */
export interface Workload {
  name: string;
  next: () => BenchRequest;
}

/**
 * Instructions per request of `build` (a build directory or a reference's name) under each workload in turn,
 * each in a process of its own: `warmup` requests uncounted, then `count` counted. (Serving several workloads in
 * one process, toggling callgrind's instrumentation and dumping between them, gave counts off by orders of
 * magnitude from the third workload on: a dump is not done when callgrind_control returns.)
 */
export async function countInstructions(
  build: string,
  workloads: Workload[],
  env: Record<string, string>,
  { warmup = WARMUP, count = COUNT } = {},
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { name, next } of workloads) counts.set(name, await countOne(build, next, env, warmup, count));
  return counts;
}

async function countOne(
  build: string,
  next: () => BenchRequest,
  env: Record<string, string>,
  warmup: number,
  count: number,
): Promise<number> {
  const { args, readyPath } = serverArgs(build);
  const directory = join(tmpdir(), `instructions-${process.pid}-${Date.now()}`);
  execFileSync('mkdir', ['-p', directory]);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      // V8 writes and rewrites machine code in its heap: valgrind must see each change.
      '--smc-check=all-non-file',
      '--instr-atstart=no',
      `--callgrind-out-file=${join(directory, 'callgrind.out.%p')}`,
      SERVER_NODE,
      ...(JITLESS ? ['--jitless'] : []),
      ...args,
    ],
    {
      cwd: join(__dirname, '..'),
      env: {
        ...process.env,
        ...env,
        PORT: String(PORT),
        METRICS_PORT: String(PORT + 5550),
        DISPATCH_MODE: 'off',
        // ~50 × slower under valgrind: the default 5 s wait for a pooled connection answered a search with 503.
        DATABASE_TIMEOUT_MS: '60000',
      },
      stdio: 'ignore',
    },
  );
  try {
    const deadline = Date.now() + 600_000;
    while (!(await answers(`http://127.0.0.1:${PORT}${readyPath}`))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${build} did not start`);
      await new Promise((done) => setTimeout(done, 1000));
    }
    await send(warmup, next);
    execFileSync('callgrind_control', ['--instr=on', String(child.pid)], { stdio: 'ignore' });
    await send(count, next);
    execFileSync('callgrind_control', ['--dump', String(child.pid)], { stdio: 'ignore' });
    return countedInstructions(directory) / count;
  } finally {
    await stop(child);
    rmSync(directory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [scenarioNames, ...builds] = process.argv.slice(2);
  const names = (scenarioNames ?? '').split('|');
  const scenarios = names.map((name) => SCENARIOS.find((candidate) => candidate.name === name));
  if (scenarios.some((scenario) => !scenario) || builds.length === 0) {
    throw new Error('Usage: instructions.ts "SCENARIO[|SCENARIO…]" BUILD_DIR|stack|floor|baseline […]');
  }
  const keys = readBenchKeys();
  const env = serviceEnvironment(keys);
  const sample = await sampleTargets(BENCH_DATABASE_URL, keys);
  console.log(`${scenarioNames}: ${WARMUP} requests warm-up, ${COUNT} counted, Node.js ${SERVER_NODE_VERSION}`);
  const counts = new Map<string, number[]>(builds.flatMap((build) => names.map((name) => [`${build} ${name}`, []])));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const build of builds) {
      const workloads = scenarios.map((scenario) => ({ name: scenario!.name, next: scenario!.requests(sample) }));
      for (const [name, perRequest] of await countInstructions(build, workloads, env)) {
        counts.get(`${build} ${name}`)!.push(perRequest);
        console.log(
          `round ${round} ${build.padEnd(16)} ${name.padEnd(32)} ${(perRequest / 1e6).toFixed(3)} M instructions/request`,
        );
      }
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  for (const name of names) {
    const first = mean(counts.get(`${builds[0]} ${name}`)!);
    for (const build of builds) {
      const values = counts.get(`${build} ${name}`)!;
      const change = ((mean(values) / first - 1) * 100).toFixed(1);
      const spread = values.map((value) => (value / 1e6).toFixed(3)).join(', ');
      console.log(
        `${build.padEnd(16)} ${name.padEnd(32)} mean ${(mean(values) / 1e6).toFixed(3)} M/request (${change} %; rounds ${spread})`,
      );
    }
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
