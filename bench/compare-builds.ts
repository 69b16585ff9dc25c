/**
 * CPU time per request of two or more builds of the service under one scenario, in interleaved rounds (A, B,
 * A, B, …) so that the machine's other load falls on each alike: for measuring one change to the request path.
 * Each build is a copy of dist/ kept inside the repository (so it finds node_modules), e.g.
 *
 *   npm run build && cp -r dist bench/tmp/before    # then change the code, and:
 *   npm run build && npx ts-node --transpile-only bench/compare-builds.ts "GET employee by id" bench/tmp/before dist
 *
 * A build of another version, whose schema differs, runs on its own seed: `DIR,DATABASE_URL,KEYS_FILE` (a
 * worktree's dist/, the database its `npm run bench:seed` filled, and the keys that seed wrote).
 * Prints each build's CPU per request and PostgreSQL's (every postgres process of the machine: what a request
 * costs the database beside the API, on the same two cores), req/s, p99 and peak resident set size, and the
 * means. Env: COMPARE_SECONDS (8 per round), COMPARE_ROUNDS (3), COMPARE_CONNECTIONS (50), BENCH_NODE (24: every
 * server on the image's Node.js 24, as bench/run.ts). Runs with metrics on and without the dispatcher, on CPU 0, as
 * bench/run.ts runs the API.
 *
 * Three names are not builds: `baseline`, the raw baseline (bench/baseline-server.ts), `floor`, the same handler
 * behind a bare NestJS app (bench/framework-floor.ts), and `stack`, the stack floor (bench/stack-floor.ts, issue
 * 51), all on the bench seed, compiled and run with the service's Node.js options (bench/servers.ts). When any is given, each build's means are also printed as the ratio of its req/s to the
 * reference's, and of the reference's CPU per request to its own (≥ 0.95: within 5 % of it): ÷ stack, ÷ floor, ÷ raw.
 */
import autocannon from 'autocannon';
import { BENCH_DATABASE_URL, BenchKeys, readBenchKeys, serviceEnvironment } from './bench-env';
import { postgresCpuSeconds, processCpuSeconds, processRssMb } from './process-cpu';
import { Sample, sampleTargets } from './sample';
import { SCENARIOS } from './scenarios';
import { answers, isReference, REFERENCES, serverArgs, startServer, stop } from './servers';

const SECONDS = Number(process.env.COMPARE_SECONDS ?? 8);
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.COMPARE_CONNECTIONS ?? 50);
const PORT = 3920;

interface Build {
  /** As given on the command line. */
  name: string;
  /** How to start it: `node` and these arguments. */
  args: string[];
  /** What answers once it is ready. */
  readyPath: string;
  databaseUrl: string;
  keys: BenchKeys;
  sample: Sample;
}

/** One round's figures, per request but req/s. */
interface Round {
  apiCpuMs: number;
  postgresCpuMs: number;
  requestsPerSecond: number;
}

async function buildOf(name: string): Promise<Build> {
  const [directory, databaseUrl = BENCH_DATABASE_URL, keysFile] = name.split(',');
  const keys = readBenchKeys(keysFile);
  const { args, readyPath } = serverArgs(directory);
  return { name, args, readyPath, databaseUrl, keys, sample: await sampleTargets(databaseUrl, keys) };
}

async function main(): Promise<void> {
  const [scenarioName, ...names] = process.argv.slice(2);
  const scenario = SCENARIOS.find((candidate) => candidate.name === scenarioName);
  if (!scenario || names.length === 0) {
    throw new Error(
      'Usage: compare-builds.ts SCENARIO BUILD_DIR[,DATABASE_URL,KEYS_FILE] | baseline | floor | stack […]',
    );
  }
  const builds: Build[] = [];
  for (const name of names) builds.push(await buildOf(name));
  const rounds = new Map<string, Round[]>(names.map((name) => [name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const build of builds) {
      const server = await startServer(
        'compared-build',
        build.args,
        {
          ...serviceEnvironment(build.keys),
          DATABASE_URL: build.databaseUrl,
          PORT: String(PORT),
          METRICS_PORT: '9470',
          DISPATCH_MODE: 'off',
        },
        0,
        () => answers(`http://127.0.0.1:${PORT}${build.readyPath}`),
      );
      const next = scenario.requests(build.sample);
      const load = (duration: number) =>
        autocannon({
          url: `http://127.0.0.1:${PORT}`,
          connections: CONNECTIONS,
          duration,
          requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
        });
      await load(3); // warm-up: the JIT, the pool, the key cache
      const before = processCpuSeconds(server.pid)!;
      const postgresBefore = postgresCpuSeconds() ?? 0;
      let peakRssMb = 0;
      const rssSampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, processRssMb(server.pid) ?? 0)), 250);
      const result = await load(SECONDS);
      clearInterval(rssSampler);
      const perRequestMs = (seconds: number) => (seconds * 1000) / result.requests.total;
      const figures: Round = {
        apiCpuMs: perRequestMs(processCpuSeconds(server.pid)! - before),
        postgresCpuMs: perRequestMs((postgresCpuSeconds() ?? 0) - postgresBefore),
        requestsPerSecond: result.requests.total / result.duration,
      };
      rounds.get(build.name)!.push(figures);
      console.log(
        `round ${round} ${build.name.padEnd(24)} ${figures.apiCpuMs.toFixed(3)} ms CPU/request  ` +
          `PostgreSQL ${figures.postgresCpuMs.toFixed(3)} ms/request  ${Math.round(figures.requestsPerSecond)} req/s  ` +
          `p99 ${result.latency.p99} ms  peak RSS ${peakRssMb} MB  non-2xx ${result.non2xx}`,
      );
      await stop(server);
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const means = (name: string) => {
    const of = rounds.get(name)!;
    return {
      apiCpuMs: mean(of.map((round) => round.apiCpuMs)),
      postgresCpuMs: mean(of.map((round) => round.postgresCpuMs)),
      requestsPerSecond: mean(of.map((round) => round.requestsPerSecond)),
    };
  };
  const first = means(names[0]);
  const change = (value: number, against: number) => `${((value / against - 1) * 100).toFixed(0)} %`;
  for (const name of names) {
    const { apiCpuMs, postgresCpuMs, requestsPerSecond } = means(name);
    console.log(
      `${name.padEnd(24)} mean ${apiCpuMs.toFixed(3)} ms CPU/request (${change(apiCpuMs, first.apiCpuMs)}), ` +
        `PostgreSQL ${postgresCpuMs.toFixed(3)} ms/request (${change(postgresCpuMs, first.postgresCpuMs)}), ` +
        `${Math.round(requestsPerSecond)} req/s (${change(requestsPerSecond, first.requestsPerSecond)}) ` +
        `against ${names[0]}`,
    );
  }
  const references = (['stack', 'floor', 'baseline'] as const).filter((reference) => names.includes(reference));
  if (references.length === 0) return;
  console.log(`\nreq/s and (reference's CPU ÷ own CPU per request), ${references.map(label).join(', ')}:`);
  for (const name of names.filter((candidate) => !isReference(candidate))) {
    const own = means(name);
    const ratios = references.map((reference) => {
      const base = means(reference);
      const [rate, cpu] = [own.requestsPerSecond / base.requestsPerSecond, base.apiCpuMs / own.apiCpuMs];
      return `${label(reference)} ${rate.toFixed(2)} (CPU ${cpu.toFixed(2)})`;
    });
    console.log(`${name.padEnd(24)} ${ratios.join('  ')}`);
  }
}

function label(reference: keyof typeof REFERENCES): string {
  return { stack: '÷ stack', floor: '÷ floor', baseline: '÷ raw' }[reference];
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
