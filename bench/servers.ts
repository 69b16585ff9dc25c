import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RESULTS_DIR } from './bench-env';

/**
 * The servers the service is measured against, by the name compare-builds.ts and instructions.ts take them by:
 * the raw baseline, the framework floor (its handler behind bare NestJS) and the stack floor (issue 51). They run
 * compiled (referenceEntry) with the service's Node.js options, so that only the code differs.
 */
export const REFERENCES = {
  baseline: 'baseline-server.ts',
  floor: 'framework-floor.ts',
  stack: 'stack-floor.ts',
} as const;
export type ReferenceName = keyof typeof REFERENCES;

/** A path every reference answers without a 5xx (a 401: no key), once it listens. */
export const REFERENCE_READY = '/api/v1/employees/00000000-0000-0000-0000-000000000000';

export function isReference(name: string): name is ReferenceName {
  return Object.hasOwn(REFERENCES, name);
}

/** How SERVER_NODE runs `name`: a compiled reference, or a build directory's main.js, each as `npm start` runs it. */
export function serverArgs(name: string): { args: string[]; readyPath: string } {
  return isReference(name)
    ? { args: [...SERVICE_NODE_OPTIONS, referenceEntry(name)], readyPath: REFERENCE_READY }
    : { args: [...SERVICE_NODE_OPTIONS, resolve(name, 'main.js')], readyPath: '/health/ready' };
}

let referencesCompiled = false;

/**
 * A reference's compiled entry. Under ts-node its TypeScript compiler (~90 MB) sat in the reference's heap, so a
 * mark-compact cost it more than the service and an instruction count of 100 requests swung by 2 ×.
 */
export function referenceEntry(name: ReferenceName): string {
  if (!referencesCompiled) {
    execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join(__dirname, 'tsconfig.references.json')], {
      stdio: 'inherit',
    });
    referencesCompiled = true;
  }
  return join(__dirname, 'tmp', 'references', 'bench', REFERENCES[name].replace(/\.ts$/, '.js'));
}

/** Servers under test run pinned to a CPU of their own when the machine has taskset. */
export const HAS_TASKSET = commandExists('taskset');
const ROOT = join(__dirname, '..');

/**
 * The Node.js the servers under test run on: this process's, or with BENCH_NODE=24 the image's Node.js 24, which
 * scripts/node24.sh fetches once into a cache (as .ci/run's tests on it do); the load generator stays on this one.
 */
export const SERVER_NODE = serverNode(process.env.BENCH_NODE);
export const SERVER_NODE_VERSION = execFileSync(SERVER_NODE, ['--version'], { encoding: 'utf8' }).trim();

/**
 * The Node.js options `npm start` runs the server with (the image's CMD runs the same, container.e2e-spec.ts
 * checks): put before a build's main.js, so the bench measures the server as it runs.
 */
export const SERVICE_NODE_OPTIONS = serviceNodeOptions();

function serviceNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [node, ...rest] = scripts.start.split(' ');
  if (node !== 'node' || rest.at(-1) !== 'dist/main.js') throw new Error(`npm start is not "node … dist/main.js"`);
  return rest.slice(0, -1);
}

function serverNode(wanted: string | undefined): string {
  if (!wanted || wanted === process.versions.node.split('.')[0]) return process.execPath;
  if (wanted === '24') {
    return execFileSync(join(ROOT, 'scripts', 'node24.sh'), {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
  }
  throw new Error(`BENCH_NODE=${wanted}: "24", or this Node.js's major (${process.versions.node.split('.')[0]})`);
}

/** Starts a process on SERVER_NODE pinned to `cpu`, its output in bench/results/<name>.log, and waits until `ready`. */
export async function startServer(
  name: string,
  args: string[],
  env: Record<string, string | undefined>,
  cpu: number,
  ready: () => Promise<boolean>,
): Promise<ChildProcess> {
  const [file, argv] = HAS_TASKSET ? ['taskset', ['-c', String(cpu), SERVER_NODE, ...args]] : [SERVER_NODE, args];
  mkdirSync(RESULTS_DIR, { recursive: true });
  const log = openSync(join(RESULTS_DIR, `${name}.log`), 'w');
  const child = spawn(file, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', log, log] });
  closeSync(log);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode} before it was ready`);
    if (await ready()) {
      console.log(
        `\n${name} ready (pid ${child.pid}, Node.js ${SERVER_NODE_VERSION}${HAS_TASKSET ? `, CPU ${cpu}` : ''}; ` +
          `its log: bench/results/${name}.log)`,
      );
      return child;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop(child);
  throw new Error(`${name} was not ready within 60 s`);
}

/** True once the URL answers anything but a 5xx. */
export function answers(url: string): Promise<boolean> {
  return fetch(url).then(
    (response) => response.status < 500,
    () => false,
  );
}

/** Stops a server: SIGTERM, then SIGKILL after 15 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function commandExists(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
