/**
 * A resource's history (issue 47): GET /employees/{id}/history for an employee with BENCH_HISTORY_EVENTS (10,000)
 * changes of its own, in an organisation whose feed holds BENCH_HISTORY_FEED (1,000,000) events in all. The
 * employee's changes are real PATCHes through EmployeesService (record_events_v2 names the resource and its
 * version); the rest of the feed is one INSERT in their shape, about other resources. Then autocannon from this
 * process at 10 connections for BENCH_HISTORY_SECONDS (10) on the first page, a deep page, and the second page
 * by cursor.
 * Needs PostgreSQL: BENCH_DATABASE_URL, else 127.0.0.1:5432, on a database of its own (made anew, dropped after).
 * Run: npm run bench:history
 */
import 'reflect-metadata';
import { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { OrganisationsService } from '../src/auth/organisations.service';
import { loadConfig } from '../src/config/config';
import { Database } from '../src/database/database';
import { migrate } from '../src/database/migrate';
import { cliWrite } from '../src/database/write-context';
import { EmployeesService } from '../src/employees/employees.service';
import { recreateDatabase } from '../test/support/global-setup';

const OWN_EVENTS = Number(process.env.BENCH_HISTORY_EVENTS ?? 10_000);
const FEED_EVENTS = Number(process.env.BENCH_HISTORY_FEED ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_HISTORY_SECONDS ?? 10);
const CONNECTIONS = 10;
const FEED_CHUNK = 50_000;
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/skills_history_bench_test_${process.pid}`;

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  await migrate(DATABASE_URL);
  const config = loadConfig({
    DATABASE_URL,
    SERVICE_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '10000000',
  });
  const app = await createApp({ config, databaseUrl: DATABASE_URL, poolSize: CONNECTIONS });
  try {
    const write = cliWrite();
    const { id: organisationId } = await app.get(OrganisationsService).create('History');
    const { key } = await app.get(ApiKeysService).create(organisationId, { name: 'bench' });
    const employees = app.get(EmployeesService);
    const employee = await employees.create(
      organisationId,
      { personnelNumber: 'P-1', firstName: 'Ada', lastName: 'Lovelace', businessEmail: 'ada@example.com' },
      write,
    );
    for (let change = 1; change < OWN_EVENTS; change++) {
      await employees.update(organisationId, employee.id, { title: `Title ${change}` }, write);
    }
    const database = app.get(Database).manager();
    // The rest of the feed: the employee's last event's body, about other employees, each at version 2; in
    // statements of FEED_CHUNK rows, each well within the service's statement timeout.
    for (let left = FEED_EVENTS - OWN_EVENTS; left > 0; left -= FEED_CHUNK) {
      await database.query(
        `INSERT INTO events (id, organisation_id, event, occurred_at, body, created_at, employee_id, resource_id,
                             resource_version)
         SELECT gen_random_uuid(), $1, template.event, template.occurred_at, template.body, template.created_at,
                other.id, other.id, 2
           FROM (SELECT * FROM events WHERE organisation_id = $1 AND resource_id = $2
                  ORDER BY resource_version DESC LIMIT 1) template,
                LATERAL (SELECT gen_random_uuid() AS id FROM generate_series(1, $3)) other`,
        [organisationId, employee.id, Math.min(left, FEED_CHUNK)],
      );
    }
    // As autovacuum would soon after such inserts: the visibility map lets the count read the index alone.
    await database.query('VACUUM ANALYZE events');

    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const base = `http://127.0.0.1:${port}/api/v1/employees/${employee.id}/history`;
    const firstPage = (await (await fetch(base, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      meta: { total: number; nextCursor: string | null };
    };
    const cursor = firstPage.meta.nextCursor;
    const paths = {
      firstPage: '',
      deepPage: `?page=${Math.floor(OWN_EVENTS / 20 / 2)}`,
      ...(cursor ? { cursorPage: `?cursor=${encodeURIComponent(cursor)}` } : {}),
    };
    const results: Record<string, unknown> = {
      events: { employee: OWN_EVENTS, organisation: FEED_EVENTS },
      firstPageTotal: firstPage.meta.total,
    };
    for (const [name, query] of Object.entries(paths)) {
      const result = await autocannon({
        url: `${base}${query}`,
        headers: { authorization: `Bearer ${key}` },
        connections: CONNECTIONS,
        duration: SECONDS,
      });
      const failed = result.non2xx + result.errors + result.timeouts;
      results[name] = {
        requestsPerSecond: Math.round(result.requests.average),
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        failed,
      };
    }
    console.log(JSON.stringify(results, null, 2));
  } finally {
    await app.close();
    await recreateDatabase(DATABASE_URL, true).catch(() => undefined);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
