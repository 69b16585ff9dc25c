/**
 * CPU time per request of two or more builds of the service under one scenario, in interleaved rounds (A, B,
 * A, B, …) so that the machine's other load falls on each alike: for measuring one change to the request path.
 * Each build is a copy of dist/ kept inside the repository (so it finds node_modules), e.g.
 *
 *   npm run build && cp -r dist bench/tmp/before    # then change the code, and:
 *   npm run build && npx ts-node --transpile-only bench/compare-builds.ts "GET employee by id" bench/tmp/before dist
 *
 * Also prints each build's peak resident set size under the load.
 * Env: COMPARE_SECONDS (8 per round), COMPARE_ROUNDS (3), COMPARE_CONNECTIONS (50). Runs with metrics on and
 * without the dispatcher, on CPU 0, as bench/run.ts runs the API.
 */
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_DATABASE_URL, readBenchKeys, serviceEnvironment } from './bench-env';
import { processCpuSeconds, processRssMb } from './process-cpu';
import { sampleTargets } from './sample';
import { SCENARIOS } from './scenarios';
import { answers, startServer, stop } from './servers';

const SECONDS = Number(process.env.COMPARE_SECONDS ?? 8);
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.COMPARE_CONNECTIONS ?? 50);
const PORT = 3920;

async function main(): Promise<void> {
  const [name, ...builds] = process.argv.slice(2);
  const scenario = SCENARIOS.find((candidate) => candidate.name === name);
  if (!scenario || builds.length === 0) throw new Error('Usage: compare-builds.ts SCENARIO BUILD_DIR [BUILD_DIR…]');
  const keys = readBenchKeys();
  const sample = await sampleTargets(BENCH_DATABASE_URL, keys);
  const perBuild = new Map<string, number[]>(builds.map((build) => [build, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const build of builds) {
      const server = await startServer(
        'compared-build',
        [resolve(build, 'main.js')],
        { ...serviceEnvironment(keys), PORT: String(PORT), METRICS_PORT: '9470', DISPATCH_MODE: 'off' },
        0,
        () => answers(`http://127.0.0.1:${PORT}/health/ready`),
      );
      const next = scenario.requests(sample);
      const load = (duration: number) =>
        autocannon({
          url: `http://127.0.0.1:${PORT}`,
          connections: CONNECTIONS,
          duration,
          requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
        });
      await load(3); // warm-up: the JIT, the pool, the key cache
      const before = processCpuSeconds(server.pid)!;
      let peakRssMb = 0;
      const rssSampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, processRssMb(server.pid) ?? 0)), 250);
      const result = await load(SECONDS);
      clearInterval(rssSampler);
      const cpuMs = ((processCpuSeconds(server.pid)! - before) * 1000) / result.requests.total;
      perBuild.get(build)!.push(cpuMs);
      console.log(
        `round ${round} ${build.padEnd(24)} ${cpuMs.toFixed(3)} ms CPU/request  ` +
          `${Math.round(result.requests.total / result.duration)} req/s  p99 ${result.latency.p99} ms  ` +
          `peak RSS ${peakRssMb} MB  non-2xx ${result.non2xx}`,
      );
      await stop(server);
    }
  }
  const [first] = builds;
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  for (const [build, values] of perBuild) {
    const change = ((mean(values) / mean(perBuild.get(first)!) - 1) * 100).toFixed(0);
    console.log(`${build.padEnd(24)} mean ${mean(values).toFixed(3)} ms CPU/request (${change} % against ${first})`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
