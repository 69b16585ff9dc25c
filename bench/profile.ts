/**
 * CPU profile of one scenario: starts the production build (`node --cpu-prof dist/main.js`) or, with
 * PROFILE_TARGET, a reference (bench/servers.ts: baseline, floor, stack) on CPU 0 as bench/run.ts does, loads it
 * from CPU 1 with autocannon, stops it, and prints its CPU time per request, the share of its busy time (idle
 * left out) spent in each stage of a request (inclusive), and the functions with the most self time. The
 * .cpuprofile (bench/results/profile/) opens in Chrome DevTools.
 *
 *   npm run build && npx ts-node --transpile-only bench/profile.ts "GET employee by id"
 *   Env: PROFILE_SECONDS (15), PROFILE_CONNECTIONS (50), PROFILE_TARGET (service | baseline | floor | stack), BENCH_NODE (24)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_DATABASE_URL, readBenchKeys, RESULTS_DIR, serviceEnvironment } from './bench-env';
import { processCpuSeconds } from './process-cpu';
import { sampleTargets } from './sample';
import { SCENARIOS } from './scenarios';
import { answers, isReference, serverArgs, startServer, stop } from './servers';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Stages of a request, matched on "function url" of any frame on the stack (so each share is inclusive). */
const STAGES: [string, RegExp][] = [
  ['socket writes (kernel)', /^(writev|writeBuffer|writeUtf8String|writeLatin1String) /],
  ['HTTP parsing and routing (node, express, router)', /^(parserOnIncoming|handle \S*router\/)/],
  ['Nest guards', /^tryActivate /],
  ['Nest pipes (validation, params)', /^(resolveParamValue|transform \S*validation\.pipe)/],
  ['class-validator', /class-validator\//],
  ['class-transformer', /class-transformer\//],
  ['Nest interceptors (rxjs)', /^intercept /],
  ['response (reply, express send, JSON)', /^reply \S*express-adapter|^send \S*express\/lib\/response/],
  ['TypeORM', /typeorm\//],
  ['pg (driver, protocol, parsing)', /\/(pg|pg-protocol|pg-pool|pg-types|postgres-date)\//],
  ['garbage collector', /^\(garbage collector\) /],
];

async function main(): Promise<void> {
  const scenario = SCENARIOS.find((candidate) => candidate.name === process.argv[2]);
  if (!scenario) throw new Error(`Name a scenario: ${SCENARIOS.map((candidate) => candidate.name).join(', ')}`);
  const targetName = process.env.PROFILE_TARGET ?? 'service';
  if (targetName !== 'service' && !isReference(targetName))
    throw new Error(`PROFILE_TARGET=${targetName}: no such server`);
  const { args, readyPath } = serverArgs(targetName === 'service' ? 'dist' : targetName);
  const keys = readBenchKeys();
  const directory = join(RESULTS_DIR, 'profile');
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const port = 3902;
  const server = await startServer(
    `profile-${targetName}`,
    ['--cpu-prof', `--cpu-prof-dir=${directory}`, ...args],
    // As bench/run.ts runs the API: metrics on, the webhook dispatcher in a process of its own (here none).
    { PORT: String(port), ...serviceEnvironment(keys), DISPATCH_MODE: 'off', METRICS_PORT: '9472' },
    0,
    () => answers(`http://127.0.0.1:${port}${readyPath}`),
  );
  const next = scenario.requests(await sampleTargets(BENCH_DATABASE_URL, keys));
  const cpuBefore = processCpuSeconds(server.pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: Number(process.env.PROFILE_CONNECTIONS ?? 50),
    duration: Number(process.env.PROFILE_SECONDS ?? 15),
    requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
  });
  const cpuMs = ((processCpuSeconds(server.pid) ?? NaN) - (cpuBefore ?? NaN)) * 1000;
  console.log(
    `${targetName} ${scenario.name}: ${Math.round(result.requests.total / result.duration)} req/s, ` +
      `p99 ${result.latency.p99} ms, CPU ${(cpuMs / result.requests.total).toFixed(2)} ms/request (profiler on), ` +
      `${result.non2xx} non-2xx`,
  );
  await stop(server);
  const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  printProfile(JSON.parse(readFileSync(join(directory, file), 'utf8')) as CpuProfile);
}

/** "name url:line" of a frame, with paths cut to the package or dist/. */
function frameName({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
}

/** Shares of the busy time (every sample but idle): per stage, inclusive; per function, self. */
function printProfile(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) =>
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)),
  );

  let busy = 0;
  const stages = new Map<string, number>(STAGES.map(([name]) => [name, 0]));
  const self = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += micros;
    self.set(frameName(node.callFrame), (self.get(frameName(node.callFrame)) ?? 0) + micros);
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)!.callFrame;
      stack.push(`${frame.functionName} ${frame.url}`);
    }
    for (const [name, pattern] of STAGES) {
      if (stack.some((frame) => pattern.test(frame))) stages.set(name, stages.get(name)! + micros);
    }
  }
  const share = (micros: number) => `${((100 * micros) / busy).toFixed(1).padStart(5)} %`;
  console.log(`\nBusy ${Math.round(busy / 1000)} ms. Share of busy time per stage (inclusive; stages overlap):`);
  for (const [name, micros] of stages) console.log(`${share(micros)}  ${name}`);
  console.log('\nSelf time by function:');
  for (const [name, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`${share(micros)}  ${name}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
