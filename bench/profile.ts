/**
 * CPU profile of the production build under one scenario: starts `node --cpu-prof dist/main.js` on CPU 0
 * (as bench/run.ts starts it), loads it from CPU 1 with autocannon, stops it, and prints the functions with
 * the most self time. The .cpuprofile (bench/results/profile/) opens in Chrome DevTools.
 *
 *   npm run build && npx ts-node --transpile-only bench/profile.ts "GET employee by id"   (PROFILE_SECONDS, 15)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_DATABASE_URL, readBenchKeys, RESULTS_DIR, serviceEnvironment } from './bench-env';
import { sampleTargets } from './sample';
import { SCENARIOS } from './scenarios';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

async function main(): Promise<void> {
  const scenario = SCENARIOS.find((candidate) => candidate.name === process.argv[2]);
  if (!scenario) throw new Error(`Name a scenario: ${SCENARIOS.map((candidate) => candidate.name).join(', ')}`);
  const keys = readBenchKeys();
  const directory = join(RESULTS_DIR, 'profile');
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  const port = 3902;
  const server = spawn(
    'taskset',
    ['-c', '0', process.execPath, '--cpu-prof', `--cpu-prof-dir=${directory}`, 'dist/main.js'],
    {
      cwd: join(__dirname, '..'),
      env: {
        ...process.env,
        PORT: String(port),
        ...serviceEnvironment(keys),
      },
      stdio: 'inherit',
    },
  );
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const next = scenario.requests(await sampleTargets(BENCH_DATABASE_URL, keys));
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 50,
    duration: Number(process.env.PROFILE_SECONDS ?? 15),
    requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
  });
  console.log(
    `${scenario.name}: ${Math.round(result.requests.total / result.duration)} req/s, p99 ${result.latency.p99} ms`,
  );
  await new Promise((resolve) => {
    server.once('exit', resolve);
    server.kill('SIGTERM');
  });
  const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  printSelfTime(JSON.parse(readFileSync(join(directory, file), 'utf8')));
}

/** Self time per function (samples × interval), top 30, and per package. */
function printSelfTime(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const perPackage = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)!.callFrame;
    const micros = profile.timeDeltas[index] ?? 0;
    const where = frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/');
    const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + micros);
    const pkg = frame.url.includes('node_modules/')
      ? frame.url
          .replace(/^.*node_modules\//, '')
          .split('/')
          .slice(0, frame.url.includes('node_modules/@') ? 2 : 1)
          .join('/')
      : frame.url.includes('/dist/')
        ? 'dist (the service)'
        : frame.url === ''
          ? `(${frame.functionName})`
          : 'node internals';
    perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + micros);
  });
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  const top = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, micros]) => `${((100 * micros) / total).toFixed(1).padStart(5)} %  ${key}`);
  console.log(
    `\nSelf time by package:\n${top(perPackage, 15).join('\n')}\n\nSelf time by function:\n${top(self, 30).join('\n')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
