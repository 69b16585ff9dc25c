/**
 * The catalogue at ESCO's full size (issue 46): 13,939 skills with their ~100,000 aliases and 640 groups, built
 * from the real ESCO files in BENCH_ESCO_DIR when given, else generated in their shape from the excerpt in
 * test/fixtures/esco (its rows copied with numbered labels and conceptUris, relations kept within each copy).
 * Measures: `skills import-esco` first run and second run (no change), in this process; then the service as
 * deployed, the build in dist/ (`npm run build` first) started as `npm start` starts it, in a process of its own
 * pinned to CPU 0 (pool of 10, as bench/compare-builds.ts runs a build), loaded from this process at 10
 * connections: POST /skills/resolve of 1,000 names and aliases (some misspelt, see BENCH_MISSPELT; for each count,
 * the first 200 requests are measured apart: after the import the instance holds no names in memory yet, and at
 * the first misspelt names no trigram index of them) and
 * GET /skills?groupId=<a top group>. Needs PostgreSQL: BENCH_DATABASE_URL, else 127.0.0.1:5432, on a database of
 * its own (made anew, dropped afterwards). Run: npm run build && npm run bench:catalogue
 *
 * Env: BENCH_ESCO_DIR, BENCH_REQUESTS (per measured request kind, 200), BENCH_CONNECTIONS (10), BENCH_MISSPELT
 * (misspelt names per resolve request, one measurement each: '0,10'), BENCH_KEEP_DATABASE
 * (leave the database for a look afterwards), BENCH_NODE (24: the server on the image's Node.js 24),
 * BENCH_SERVER_ARGS (Node.js options put before the server's own, e.g. '--cpu-prof --cpu-prof-dir=bench/results').
 */
import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse } from 'csv-parse/sync';
import { runCli } from '../src/cli/run-cli';
import { loadConfig } from '../src/config/config';
import { migrate } from '../src/database/migrate';
import { recreateDatabase } from '../test/support/global-setup';
import { answers, SERVER_NODE_VERSION, serverArgs, startServer, stop } from './servers';

const ESCO_SKILLS = 13_939;
const ESCO_GROUPS = 640;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** How many of each resolve request's 1,000 names are misspelt, one measurement each. */
const MISSPELT = (process.env.BENCH_MISSPELT ?? '0,10').split(',').map(Number);
const EXCERPT = join(__dirname, '..', 'test', 'fixtures', 'esco');
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/skills_catalogue_bench_test_${process.pid}`;
const SECRET_KEY = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

type Row = Record<string, string>;

const read = (directory: string, file: string): { header: string[]; rows: Row[] } => {
  const text = readFileSync(join(directory, file));
  const [header]: string[][] = parse(text, { to_line: 1 });
  const rows: Row[] = parse(text, { columns: true, bom: true });
  return { header, rows };
};

const csv = (header: string[], rows: Row[]) =>
  [header, ...rows.map((row) => header.map((column) => row[column] ?? ''))]
    .map((cells) => cells.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(','))
    .join('\n');

/** The excerpt's rows copied until ESCO's size: copy k renames each label `<label> k` and each URI `<uri>-k`. */
function generate(): string {
  const directory = mkdtempSync(join(tmpdir(), 'esco-bench-'));
  const skills = read(EXCERPT, 'skills_en.csv');
  const groups = read(EXCERPT, 'skillGroups_en.csv');
  const relations = read(EXCERPT, 'broaderRelationsSkillPillar_en.csv');
  const skillCopies = Math.ceil(ESCO_SKILLS / skills.rows.length);
  const groupCopies = Math.ceil(ESCO_GROUPS / groups.rows.length);
  const renamed = (text: string, copy: number) => (copy === 0 ? text : `${text} ${copy}`);
  const labels = (field: string, copy: number) =>
    field
      .split('\n')
      .filter((label) => label.trim() !== '')
      .map((label) => renamed(label, copy))
      .join('\n');
  const uri = (value: string, copy: number) => (copy === 0 ? value : `${value}-${copy}`);
  const copyRows = (rows: Row[], copies: number, limit: number) =>
    Array.from({ length: copies }, (_v, copy) =>
      rows.map((row) => ({
        ...row,
        conceptUri: uri(row.conceptUri, copy),
        preferredLabel: renamed(row.preferredLabel, copy),
        altLabels: labels(row.altLabels, copy),
        hiddenLabels: labels(row.hiddenLabels, copy),
      })),
    )
      .flat()
      .slice(0, limit);
  writeFileSync(join(directory, 'skills_en.csv'), csv(skills.header, copyRows(skills.rows, skillCopies, ESCO_SKILLS)));
  writeFileSync(
    join(directory, 'skillGroups_en.csv'),
    csv(groups.header, copyRows(groups.rows, groupCopies, ESCO_GROUPS)),
  );
  const groupCount = new Map<string, number>();
  copyRows(groups.rows, groupCopies, ESCO_GROUPS).forEach((row) => groupCount.set(row.conceptUri, 1));
  const relationRows = Array.from({ length: skillCopies }, (_v, copy) =>
    relations.rows.map((row) => {
      const groupCopy = copy % groupCopies;
      const copied = (value: string, type: string) => {
        const candidate = uri(value, type === 'SkillGroup' ? groupCopy : copy);
        // A group copy cut off by ESCO's size falls back to the first copy.
        return type === 'SkillGroup' && !groupCount.has(candidate) ? value : candidate;
      };
      return {
        ...row,
        conceptUri: copied(row.conceptUri, row.conceptType),
        broaderUri: copied(row.broaderUri, row.broaderType),
      };
    }),
  ).flat();
  writeFileSync(join(directory, 'broaderRelationsSkillPillar_en.csv'), csv(relations.header, relationRows));
  return directory;
}

function percentile(sorted: number[], p: number): number {
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1));
}

/** REQUESTS calls of `send`, CONNECTIONS at a time, after CONNECTIONS unmeasured ones (the JIT): p50, p99, max in ms. */
async function measure(send: (index: number) => Promise<Response>) {
  const run = async (count: number) => {
    const timings: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < count) {
          const index = next++;
          const started = performance.now();
          const response = await send(index);
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`answered ${response.status}`);
          timings.push(performance.now() - started);
        }
      }),
    );
    return timings.sort((a, b) => a - b);
  };
  await run(CONNECTIONS);
  const timings = await run(REQUESTS);
  return { p50: percentile(timings, 50), p99: percentile(timings, 99), max: percentile(timings, 100) };
}

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  await migrate(DATABASE_URL);
  const directory = process.env.BENCH_ESCO_DIR ?? generate();
  const config = loadConfig({ DATABASE_URL, WEBHOOK_SECRET_KEY: SECRET_KEY, LOG_LEVEL: 'silent' });
  const cli = async (args: string[]) => {
    let stdout = '';
    const code = await runCli(
      [...args, '--json'],
      { stdout: (chunk) => (stdout += chunk), stderr: (chunk) => process.stderr.write(chunk) },
      config,
    );
    if (code !== 0) throw new Error(`${args.slice(0, 2).join(' ')} exited with ${code}: ${stdout}`);
    return JSON.parse(stdout) as Record<string, unknown>;
  };
  const results: Record<string, unknown> = { source: process.env.BENCH_ESCO_DIR ? 'ESCO files' : 'generated' };
  let server: ChildProcess | undefined;
  try {
    const organisation = (await cli(['org', 'create', `catalogue ${process.pid}`])) as { id: string };
    const { key } = (await cli(['api-key', 'create', '--org', organisation.id, '--name', 'bench'])) as {
      key: string;
    };
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const importOnce = async () => {
      const started = performance.now();
      const { skills, groups, links } = await cli(['skills', 'import-esco', directory, '--org', organisation.id]);
      return { seconds: Number(((performance.now() - started) / 1000).toFixed(1)), skills, groups, links };
    };
    results.firstImport = await importOnce();
    results.secondImport = await importOnce();
    console.error(JSON.stringify(results));

    const [port, metricsPort] = [await freePort(), await freePort()];
    const { args, readyPath } = serverArgs('dist');
    server = await startServer(
      'catalogue-server',
      [...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean), ...args],
      {
        // As bench/bench-env.ts's serviceEnvironment, without the webhook receiver this bench has none of.
        DATABASE_URL,
        SERVICE_SECRET_KEY: SECRET_KEY,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '1000000000',
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        DISPATCH_MODE: 'off',
      },
      0,
      () => answers(`http://127.0.0.1:${port}${readyPath}`),
    );
    results.serverNode = SERVER_NODE_VERSION;
    const base = `http://127.0.0.1:${port}/api/v1`;

    const skills = read(directory, 'skills_en.csv').rows;
    const known = skills
      .flatMap((row) => [row.preferredLabel, ...row.altLabels.split('\n')])
      .map((label) => label.trim())
      .filter(Boolean);
    // `misspelt` names in 1,000 lose a letter from their middle, so they resolve to none, with suggestions.
    const names = (request: number, misspelt: number) =>
      Array.from({ length: 1000 }, (_v, index) => {
        const name = known[(request * 7919 + index * 104_729) % known.length];
        return index < misspelt ? name.slice(0, name.length >> 1) + name.slice((name.length >> 1) + 1) : name;
      });
    for (const misspelt of MISSPELT) {
      // Made before the clock starts, so the client's own work is the least it can be.
      const bodies = Array.from({ length: REQUESTS + CONNECTIONS }, (_v, request) =>
        JSON.stringify({ names: names(request, misspelt) }),
      );
      const resolve = (request: number) =>
        fetch(`${base}/skills/resolve`, { method: 'POST', headers, body: bodies[request] });
      // The first requests after a change of the catalogue find no names held in memory, and the first with
      // misspelt names no trigram index of them: measured on their own.
      results[`resolve1000with${misspelt}misspeltFirst200`] = await measure(resolve);
      results[`resolve1000with${misspelt}misspelt`] = await measure(resolve);
    }
    const roots = await fetch(`${base}/skill-groups?parentId=root&limit=100`, { headers });
    const top = ((await roots.json()) as { data: Array<{ id: string; name: string }> }).data.find(
      (group) => group.name === 'skills',
    )!;
    const detail = await fetch(`${base}/skill-groups/${top.id}`, { headers });
    results.topGroup = {
      name: top.name,
      skillCount: ((await detail.json()) as { data: { skillCount: number } }).data.skillCount,
    };
    results.groupIdList = await measure(() => fetch(`${base}/skills?groupId=${top.id}`, { headers }));
    results.groupIdCount = await measure(() => fetch(`${base}/skill-groups/${top.id}`, { headers }));
    console.log(JSON.stringify(results, null, 2));
  } finally {
    if (server) await stop(server);
    if (!process.env.BENCH_ESCO_DIR) rmSync(directory, { recursive: true, force: true });
    if (!process.env.BENCH_KEEP_DATABASE) await recreateDatabase(DATABASE_URL, true).catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
