import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { testBuildDir } from './build';
import { replicaUrlsFor } from './replica-urls';

export interface ServerProcess {
  port: number;
  /** Everything the process printed so far, stdout and stderr. */
  output(): string;
  /** What it printed on stdout alone. */
  stdout(): string;
  /** Resolves to the match once stdout matches `pattern` (what it prints after answering, like the first key). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Stops it as Ctrl-C would (SIGINT), or with the signal given; resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const ROOT = join(__dirname, '..', '..');

/** Where a process runs from: `build`, the directory of main.js and cli.js (the run's build unless another release's). */
export interface ProcessOptions {
  cwd?: string;
  timeoutMs?: number;
  build?: string;
}

/**
 * Runs the built server (`node dist/main.js`, as `npm start` does, from the run's build) on `port` or a
 * free one, and resolves once /health/live answers; rejects with its output if it exits first or takes
 * too long.
 */
export async function startServer(
  env: NodeJS.ProcessEnv,
  options: ProcessOptions & { port?: number } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  return startMain(env, port, options, 'answer /health/live', () => isLive(port));
}

/**
 * Runs the built server as a webhook worker (DISPATCH_MODE=worker, which opens no port: PORT is a free one,
 * to check that nothing listens there) and resolves once it says it is dispatching.
 */
export async function startWorkerProcess(
  env: NodeJS.ProcessEnv,
  options: { timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const ready = /Dispatching webhook deliveries/;
  return startMain({ ...env, DISPATCH_MODE: 'worker' }, await freePort(), options, `print ${ready}`, (stdout) =>
    ready.test(stdout),
  );
}

/** Spawns dist/main.js and resolves once `isReady`; rejects with its output if it exits first or takes too long. */
async function startMain(
  env: NodeJS.ProcessEnv,
  port: number,
  options: ProcessOptions,
  readiness: string,
  isReady: (stdout: string) => boolean | Promise<boolean>,
): Promise<ServerProcess> {
  const { cwd = ROOT, timeoutMs = 45_000, build = testBuildDir() } = options;
  // A run through PgBouncer (TEST_PGBOUNCER=true): a server on the test database gets its direct URL too.
  const direct = process.env.TEST_DATABASE_DIRECT_URL;
  if (direct && env.DATABASE_URL === process.env.TEST_DATABASE_URL) env = { DATABASE_DIRECT_URL: direct, ...env };
  // The run on replicas (.ci/run): a server on the test database reads on its replicas.
  const replicas = env.DATABASE_URL === process.env.TEST_DATABASE_URL && replicaUrlsFor(env.DATABASE_URL);
  if (replicas) env = { DATABASE_REPLICA_URLS: replicas, ...env };
  const child = spawn(process.execPath, [join(build, 'main.js')], {
    cwd,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started: ServerProcess = {
    port,
    output: () => output,
    stdout: () => stdout,
    waitFor: async (pattern: RegExp, waitMs = 10_000) => {
      const until = Date.now() + waitMs;
      for (let match = pattern.exec(stdout); ; match = pattern.exec(stdout)) {
        if (match) return match;
        if (Date.now() > until) throw new Error(`the server never printed ${pattern}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: (signal) => stop(child, exited, signal),
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await exited;
      throw new Error(`server exited with ${child.exitCode ?? child.signalCode}:\n${output}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`server did not ${readiness} within ${timeoutMs} ms:\n${output}`);
    }
    if (await isReady(stdout)) return started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs a one-off command of the built CLI (`node dist/cli.js`) as a real process. */
export function runCliProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: Pick<ProcessOptions, 'cwd' | 'build'> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { cwd = ROOT, build = testBuildDir() } = options;
  const child = spawn(process.execPath, [join(build, 'cli.js'), ...args], {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

async function isLive(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

/**
 * A port nothing listens on, on every address (as the server listens), picked below the kernel's ephemeral range
 * (32768 and up): a port the kernel hands out could be taken, before the server binds it, as the local port of one
 * of the run's many outgoing connections (CI once saw EADDRINUSE so).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** SIGINT by default, as Ctrl-C: the server shuts down at once, without the delay SIGTERM gives a balancer. */
function stop(
  child: ChildProcess,
  exited: Promise<number | null>,
  signal: NodeJS.Signals = 'SIGINT',
): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  return exited;
}
