/**
 * Bulk load: 100,000 employees of a new organisation through POST /employees/bulk (100 requests of 1,000, 4 at
 * a time) with a webhook endpoint subscribed, then 100,000 ratings through POST /ratings/bulk, each against a raw
 * baseline (node:http + pg) doing the same multi-row upsert and outbox inserts; then the time the dispatcher takes
 * to send the delivery backlog to a local HTTPS receiver (bench/bulk-receiver.ts, a child process). Needs
 * PostgreSQL: BENCH_DATABASE_URL, else 127.0.0.1:5432, on a database of its own (made anew, dropped afterwards).
 * Run: npm run bench:bulk
 *
 * Env: BENCH_BULK_TOTAL (items per scenario, 100000), BENCH_BULK_PARALLEL (4), BENCH_ONLY (regex on the scenario
 * names "bulk employees", "bulk ratings"; the ratings need the employees, which are loaded anyway).
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { createServer as createHttpServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { OrganisationsService } from '../src/auth/organisations.service';
import { loadConfig } from '../src/config/config';
import { migrate } from '../src/database/migrate';
import { cliWrite } from '../src/database/write-context';
import { SkillsBulkService } from '../src/skills/skills-bulk.service';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher';
import { WebhooksService } from '../src/webhooks/webhooks.service';
import { recreateDatabase } from '../test/support/global-setup';
import { makeSelfSignedCertificate, TrustCertificateModule } from '../test/support/tls';

const TOTAL = Number(process.env.BENCH_BULK_TOTAL ?? 100_000);
const PARALLEL = Number(process.env.BENCH_BULK_PARALLEL ?? 4);
const BATCH = 1000;
const SKILLS = 20;
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/skills_bulk_bench_test_${process.pid}`;

type Item = Record<string, unknown>;

const employeeItems = (prefix: string, batch: number): Item[] =>
  Array.from({ length: BATCH }, (_item, index) => {
    const number = `${prefix}-${batch * BATCH + index}`;
    return { personnelNumber: number, firstName: 'Ada', lastName: 'Lovelace', businessEmail: `${number}@example.com` };
  });

const ratingItems = (prefix: string, batch: number): Item[] =>
  Array.from({ length: BATCH }, (_item, index) => ({
    personnelNumber: `${prefix}-${(batch * BATCH + index) % TOTAL}`,
    skillName: `Skill ${index % SKILLS}`,
    score: index % 6,
    ratingType: 'MANAGER_EVALUATION',
  }));

/** POSTs TOTAL / 1,000 bulk requests, PARALLEL at a time; answers the seconds taken. */
async function load(url: string, bearer: string, items: (batch: number) => Item[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < TOTAL / BATCH) {
        const batch = next++;
        const response = await fetch(url, {
          method: 'POST',
          headers: { Authorization: bearer, 'Content-Type': 'application/json' },
          body: JSON.stringify({ items: items(batch) }),
        });
        const body = (await response.json()) as { meta?: { failed: number } };
        if (response.status !== 200 || body.meta?.failed !== 0) {
          throw new Error(`${url} batch ${batch}: ${response.status} ${JSON.stringify(body).slice(0, 500)}`);
        }
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  await recreateDatabase(DATABASE_URL);
  await migrate(DATABASE_URL);

  const certificate = makeSelfSignedCertificate();
  const receiver = await startReceiver(certificate);
  const receiverUrl = `https://127.0.0.1:${receiver.port}/bench`;

  const config = loadConfig({
    DATABASE_URL,
    SERVICE_SECRET_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'silent',
  });
  const app = await createApp({ config, databaseUrl: DATABASE_URL, poolSize: 10 }, [
    TrustCertificateModule.of(certificate),
  ]);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/api/v1`;
  const baseline = await startBaseline();
  const results: Record<string, unknown> = { total: TOTAL, parallel: PARALLEL };

  try {
    const tenant = async (name: string) => {
      const organisation = await app.get(OrganisationsService).create(`${name} ${process.pid}`);
      const key = await app.get(ApiKeysService).create(organisation.id, { name: 'bench' });
      await app.get(WebhooksService).create(
        organisation.id,
        {
          url: receiverUrl,
          events: ['employee.created', 'skill.rated'],
          secret: 'bench-secret',
        },
        cliWrite(),
      );
      await app.get(SkillsBulkService).upsert(
        organisation.id,
        Array.from({ length: SKILLS }, (_skill, index) => ({ name: `Skill ${index}` })),
        cliWrite(),
      );
      return { id: organisation.id, bearer: `Bearer ${key.key}` };
    };
    const raw = await tenant('Baseline');
    const service = await tenant('Service');
    const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`;

    const employees = !ONLY || ONLY.test('bulk employees') || ONLY.test('bulk ratings');
    const ratings = !ONLY || ONLY.test('bulk ratings');
    if (employees) {
      results.baselineEmployeesSeconds = await load(`${baselineUrl}/employees/bulk`, raw.id, (batch) =>
        employeeItems('B', batch),
      );
    }
    if (ratings) {
      results.baselineRatingsSeconds = await load(`${baselineUrl}/ratings/bulk`, raw.id, (batch) =>
        ratingItems('B', batch),
      );
    }
    // The baseline records deliveries but sends nothing: they must not reach the service's dispatcher.
    await app.get(DataSource).query(`DELETE FROM webhook_deliveries WHERE organisation_id = $1`, [raw.id]);

    app.get(WebhookDispatcher).start();
    let loaded = performance.now();
    if (employees) {
      results.serviceEmployeesSeconds = await load(`${base}/employees/bulk`, service.bearer, (batch) =>
        employeeItems('S', batch),
      );
      loaded = performance.now();
    }
    if (ratings) {
      results.serviceRatingsSeconds = await load(`${base}/ratings/bulk`, service.bearer, (batch) =>
        ratingItems('S', batch),
      );
      loaded = performance.now();
    }
    const expected = (employees ? TOTAL : 0) + (ratings ? TOTAL : 0);
    results.deliveredDuringLoad = await receiver.received();
    while ((await receiver.received()) < expected) await new Promise((resolve) => setTimeout(resolve, 100));
    results.drainSecondsAfterLoad = Number(((performance.now() - loaded) / 1000).toFixed(2));
    for (const kind of ['Employees', 'Ratings']) {
      const ours = results[`service${kind}Seconds`] as number | undefined;
      const theirs = results[`baseline${kind}Seconds`] as number | undefined;
      if (ours && theirs) results[`ratio${kind}`] = Number((theirs / ours).toFixed(2));
    }
    console.log(JSON.stringify(results, null, 2));
  } finally {
    baseline.close();
    await app.close();
    receiver.close();
    await basePool.end();
    await recreateDatabase(DATABASE_URL, true).catch(() => undefined);
  }
}

/** bench/bulk-receiver.ts in a child process: its port, and the count of deliveries it has received. */
async function startReceiver(certificate: { key: string; cert: string }) {
  const child = fork(join(__dirname, 'bulk-receiver.ts'), [], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    env: { ...process.env, BENCH_RECEIVER_TLS: JSON.stringify(certificate) },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`webhook receiver exited with ${code}`)));
  });
  return {
    port,
    received: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message: { received: number }) => resolve(message.received));
        child.send({});
      }),
    close: () => child.disconnect(),
  };
}

/** The baseline's pool: the service's size. */
const basePool = new Pool({ connectionString: DATABASE_URL, max: 10 });

/**
 * The raw baseline: the same statements as the service's bulk paths (lock the matched rows, one multi-row insert,
 * one statement for the events and their deliveries) with plain pg, no validation beyond JSON parsing. The
 * organisation id is the bearer (no key lookup).
 */
async function startBaseline(): Promise<Server> {
  const server = createHttpServer((request, response) => {
    baselineRoute(request).then(
      (meta) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ meta })),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function baselineRoute(request: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const { items } = JSON.parse(Buffer.concat(chunks).toString()) as { items: Item[] };
  const organisationId = request.headers.authorization!;
  const client = await basePool.connect();
  try {
    await client.query('BEGIN');
    const events =
      request.url === '/employees/bulk'
        ? await baselineEmployees(client, organisationId, items)
        : await baselineRatings(client, organisationId, items);
    await recordEvents(client, organisationId, events);
    await client.query('COMMIT');
    return { created: items.length, updated: 0, unchanged: 0, failed: 0 };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

type RawEvent = { name: string; data: unknown };

async function baselineEmployees(client: PoolClient, organisationId: string, items: Item[]): Promise<RawEvent[]> {
  const numbers = items.map((item) => item.personnelNumber as string);
  await client.query(
    `SELECT id FROM employees WHERE organisation_id = $1 AND personnel_number = ANY ($2::text[]) FOR UPDATE`,
    [organisationId, numbers],
  );
  const now = new Date();
  const rows: Record<string, string>[] = items.map((item) => ({ ...(item as Record<string, string>), id: uuidv7() }));
  await client.query(
    `INSERT INTO employees (id, organisation_id, personnel_number, first_name, last_name, business_email,
                            is_hr_team_member, created_at, updated_at)
     SELECT v.id, $1, v.pn, v.fn, v.ln, v.email, false, $6, $6
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $7::text[]) AS v(id, pn, fn, ln, email)`,
    [
      organisationId,
      rows.map((row) => row.id),
      numbers,
      rows.map((row) => row.firstName),
      rows.map((row) => row.lastName),
      now,
      rows.map((row) => row.businessEmail),
    ],
  );
  return rows.map((row) => ({ name: 'employee.created', data: row }));
}

async function baselineRatings(client: PoolClient, organisationId: string, items: Item[]): Promise<RawEvent[]> {
  const { rows: employees } = await client.query<{ id: string; personnel_number: string }>(
    `SELECT id, personnel_number FROM employees WHERE organisation_id = $1 AND personnel_number = ANY ($2::text[])`,
    [organisationId, items.map((item) => item.personnelNumber)],
  );
  const { rows: skills } = await client.query<{ id: string; name: string }>(
    `SELECT id, name FROM skills WHERE organisation_id = $1 AND lower(name) = ANY ($2::text[]) FOR KEY SHARE`,
    [organisationId, items.map((item) => String(item.skillName).toLowerCase())],
  );
  const employeeOf = new Map(employees.map((row) => [row.personnel_number, row.id]));
  const skillOf = new Map(skills.map((row) => [row.name.toLowerCase(), row.id]));
  const now = new Date();
  const ratings = items.map((item) => ({
    id: uuidv7(),
    employeeId: employeeOf.get(item.personnelNumber as string)!,
    skillId: skillOf.get(String(item.skillName).toLowerCase())!,
    score: item.score as number,
    ratingType: item.ratingType as string,
  }));
  const pairs = [...new Map(ratings.map((rating) => [`${rating.employeeId}/${rating.skillId}`, rating])).values()];
  await client.query(
    `WITH pair AS (SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::uuid[]) AS p(id, employee_id, skill_id)),
     created AS (
       INSERT INTO person_skills (id, organisation_id, employee_id, skill_id, created_at)
       SELECT pair.id, $1, pair.employee_id, pair.skill_id, $5 FROM pair
       ON CONFLICT (employee_id, skill_id) DO NOTHING RETURNING id, employee_id, skill_id
     ), existing AS (
       SELECT ps.id, ps.employee_id, ps.skill_id FROM person_skills ps
         JOIN pair ON ps.employee_id = pair.employee_id AND ps.skill_id = pair.skill_id
        WHERE ps.organisation_id = $1 FOR KEY SHARE OF ps
     ), link AS (SELECT * FROM created UNION ALL SELECT * FROM existing)
     INSERT INTO ratings (id, organisation_id, person_skill_id, employee_id, skill_id, score, rating_type, comment,
                          created_at)
     SELECT v.id, $1, link.id, v.employee_id, v.skill_id, v.score, v.rating_type, NULL, $5
       FROM unnest($6::uuid[], $7::uuid[], $8::uuid[], $9::int[], $10::text[])
            AS v(id, employee_id, skill_id, score, rating_type)
       JOIN link ON link.employee_id = v.employee_id AND link.skill_id = v.skill_id`,
    [
      organisationId,
      pairs.map(() => uuidv7()),
      pairs.map((pair) => pair.employeeId),
      pairs.map((pair) => pair.skillId),
      now,
      ratings.map((rating) => rating.id),
      ratings.map((rating) => rating.employeeId),
      ratings.map((rating) => rating.skillId),
      ratings.map((rating) => rating.score),
      ratings.map((rating) => rating.ratingType),
    ],
  );
  return ratings.map((rating) => ({ name: 'skill.rated', data: { employeeId: rating.employeeId, rating } }));
}

/** The service's batch outbox write: every event, and one delivery per event and subscribed endpoint. */
async function recordEvents(client: PoolClient, organisationId: string, events: RawEvent[]): Promise<void> {
  const at = new Date();
  await client.query(
    `WITH event AS (
       INSERT INTO events (id, organisation_id, event, occurred_at, body, created_at)
       SELECT v.id, $1, v.event, $4, v.body, $4 FROM unnest($2::uuid[], $3::text[], $5::bytea[]) AS v(id, event, body)
       RETURNING id, event
     )
     INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event, created_at)
     SELECT gen_random_uuid(), $1, endpoint.id, event.id, event.event, $4
       FROM event
       JOIN (SELECT id, events FROM webhook_endpoints WHERE organisation_id = $1 FOR KEY SHARE) endpoint
         ON event.event = ANY (endpoint.events)`,
    [
      organisationId,
      events.map(() => uuidv7()),
      events.map((event) => event.name),
      at,
      events.map((event) =>
        Buffer.from(JSON.stringify({ event: event.name, timestamp: at.toISOString(), data: event.data })),
      ),
    ],
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
