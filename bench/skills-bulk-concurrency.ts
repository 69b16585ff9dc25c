/**
 * Many writers of one organisation's catalogue at once (issue 46): BENCH_WRITERS (50) concurrent
 * `POST /skills/bulk` of BENCH_ITEMS (1,000) items each, every name distinct, half the items with two aliases,
 * sent in two rounds (the first creates every skill, the second sends the same items, all unchanged). Answers
 * per round the statuses, the slowest request, and then checks the catalogue: every name once, no alias on two
 * skills. The server runs in this process with the service's pool (10) and statement limit, and listens on
 * 127.0.0.1 only. Needs PostgreSQL: BENCH_DATABASE_URL, else 127.0.0.1:5432, on a database of its own (made anew,
 * dropped afterwards). Run: npm run bench:skills-bulk
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { OrganisationsService } from '../src/auth/organisations.service';
import { loadConfig } from '../src/config/config';
import { migrate } from '../src/database/migrate';
import { recreateDatabase } from '../test/support/global-setup';

const WRITERS = Number(process.env.BENCH_WRITERS ?? 50);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const ROUNDS = 2;
const POOL_SIZE = 10;
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/skills_bulk_bench_test_${process.pid}`;

/** Writer `writer`'s items: names of its own, two aliases of their own on every other item. */
const itemsOf = (writer: number) =>
  Array.from({ length: ITEMS }, (_v, index) => ({
    name: `Concurrent skill ${writer}-${index}`,
    ...(index % 2 === 0 && { aliases: [`cs ${writer}-${index}`, `concurrent ${writer} ${index}`] }),
  }));

interface Answer {
  status: number;
  ms: number;
  failedItems: number;
  error?: string;
}

async function round(base: string, headers: Record<string, string>): Promise<Answer[]> {
  return Promise.all(
    Array.from({ length: WRITERS }, async (_v, writer) => {
      const started = performance.now();
      const response = await fetch(`${base}/skills/bulk`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ items: itemsOf(writer) }),
      });
      const body = (await response.json()) as {
        data?: Array<{ status: string }>;
        error?: { code: string; message: string };
      };
      return {
        status: response.status,
        ms: performance.now() - started,
        failedItems: body.data?.filter((item) => item.status === 'failed').length ?? 0,
        error: body.error && `${body.error.code}: ${body.error.message}`,
      };
    }),
  );
}

function summary(answers: Answer[]) {
  const statuses: Record<number, number> = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  const ms = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  return {
    statuses,
    failedItems: answers.reduce((sum, answer) => sum + answer.failedItems, 0),
    errors: [...new Set(answers.flatMap((answer) => (answer.error ? [answer.error] : [])))],
    p50Ms: Math.round(ms[Math.floor(ms.length / 2)]),
    maxMs: Math.round(ms[ms.length - 1]),
  };
}

/** Names held twice, and aliases on more than one skill, in the organisation. */
async function duplicates(organisationId: string) {
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ names: number; aliases: number; skills: number }>(
      `SELECT (SELECT count(*)::int FROM skills WHERE organisation_id = $1) AS skills,
              (SELECT count(*)::int FROM (SELECT name_key FROM skills WHERE organisation_id = $1
                 GROUP BY name_key HAVING count(*) > 1) d) AS names,
              (SELECT count(*)::int FROM (SELECT name_key FROM skill_aliases WHERE organisation_id = $1
                 GROUP BY name_key HAVING count(DISTINCT skill_id) > 1) d) AS aliases`,
      [organisationId],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  await migrate(DATABASE_URL);
  const config = loadConfig({
    DATABASE_URL,
    WEBHOOK_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    LOG_LEVEL: 'silent',
  });
  const app = await createApp({ config, databaseUrl: DATABASE_URL, poolSize: POOL_SIZE });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/api/v1`;
  const results: Record<string, unknown> = { writers: WRITERS, items: ITEMS, poolSize: POOL_SIZE };
  try {
    const organisation = await app.get(OrganisationsService).create(`bulk concurrency ${process.pid}`);
    const key = await app.get(ApiKeysService).create(organisation.id, { name: 'bench' });
    const headers = { Authorization: `Bearer ${key.key}`, 'Content-Type': 'application/json' };
    for (let number = 1; number <= ROUNDS; number++) {
      results[`round${number}`] = summary(await round(base, headers));
      console.error(JSON.stringify(results[`round${number}`]));
    }
    results.catalogue = await duplicates(organisation.id);
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
