/**
 * The catalogue at ESCO's full size (issue 46): 13,939 skills with their ~100,000 aliases and 640 groups, built
 * from the real ESCO files in BENCH_ESCO_DIR when given, else generated in their shape from the excerpt in
 * test/fixtures/esco (its rows copied with numbered labels and conceptUris, relations kept within each copy).
 * Measures: `skills import-esco` first run and second run (no change), then at 10 connections
 * POST /skills/resolve of 1,000 names (90 % names and aliases, 10 % misspelt) and GET /skills?groupId=<a top
 * group>. Needs PostgreSQL: BENCH_DATABASE_URL, else 127.0.0.1:5432, on a database of its own (made anew,
 * dropped afterwards). Run: npm run bench:catalogue
 *
 * Env: BENCH_ESCO_DIR, BENCH_REQUESTS (per measured request kind, 200), BENCH_CONNECTIONS (10), BENCH_KEEP_DATABASE
 * (leave the database for a look afterwards).
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse } from 'csv-parse/sync';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { OrganisationsService } from '../src/auth/organisations.service';
import { runCli } from '../src/cli/run-cli';
import { loadConfig } from '../src/config/config';
import { migrate } from '../src/database/migrate';
import { recreateDatabase } from '../test/support/global-setup';

const ESCO_SKILLS = 13_939;
const ESCO_GROUPS = 640;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const EXCERPT = join(__dirname, '..', 'test', 'fixtures', 'esco');
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/skills_catalogue_bench_test_${process.pid}`;

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

/** REQUESTS calls of `send`, CONNECTIONS at a time: p50, p99 and max in ms. */
async function measure(send: (index: number) => Promise<Response>) {
  const timings: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < REQUESTS) {
        const index = next++;
        const started = performance.now();
        const response = await send(index);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`answered ${response.status}`);
        timings.push(performance.now() - started);
      }
    }),
  );
  timings.sort((a, b) => a - b);
  return { p50: percentile(timings, 50), p99: percentile(timings, 99), max: percentile(timings, 100) };
}

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  await migrate(DATABASE_URL);
  const directory = process.env.BENCH_ESCO_DIR ?? generate();
  const config = loadConfig({
    DATABASE_URL,
    WEBHOOK_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    LOG_LEVEL: 'silent',
  });
  const app = await createApp({ config, databaseUrl: DATABASE_URL, poolSize: CONNECTIONS });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/api/v1`;
  const results: Record<string, unknown> = { source: process.env.BENCH_ESCO_DIR ? 'ESCO files' : 'generated' };
  try {
    const organisation = await app.get(OrganisationsService).create(`catalogue ${process.pid}`);
    const key = await app.get(ApiKeysService).create(organisation.id, { name: 'bench' });
    const headers = { Authorization: `Bearer ${key.key}`, 'Content-Type': 'application/json' };
    const importOnce = async () => {
      let stdout = '';
      const started = performance.now();
      const code = await runCli(
        ['skills', 'import-esco', directory, '--org', organisation.id, '--json'],
        { stdout: (chunk) => (stdout += chunk), stderr: (chunk) => process.stderr.write(chunk) },
        config,
      );
      if (code !== 0) throw new Error(`import-esco exited with ${code}: ${stdout}`);
      const { skills, groups, links } = JSON.parse(stdout) as Record<string, unknown>;
      return { seconds: Number(((performance.now() - started) / 1000).toFixed(1)), skills, groups, links };
    };
    results.firstImport = await importOnce();
    results.secondImport = await importOnce();
    console.error(JSON.stringify(results));

    const skills = read(directory, 'skills_en.csv').rows;
    const known = skills.flatMap((row) => [row.preferredLabel, ...row.altLabels.split('\n')]).filter(Boolean);
    const names = (request: number) =>
      Array.from({ length: 1000 }, (_v, index) => {
        const name = known[(request * 7919 + index * 104_729) % known.length];
        // One name in ten misspelt: a letter dropped from its middle, so it resolves to none, with suggestions.
        return index % 10 === 0 ? name.slice(0, name.length >> 1) + name.slice((name.length >> 1) + 1) : name;
      });
    results.resolve1000 = await measure((request) =>
      fetch(`${base}/skills/resolve`, { method: 'POST', headers, body: JSON.stringify({ names: names(request) }) }),
    );
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
    await app.close();
    if (!process.env.BENCH_KEEP_DATABASE) await recreateDatabase(DATABASE_URL, true).catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
