/**
 * Seeds the benchmark database at scale, in SQL (generate_series), in a few minutes:
 * 10 organisations × 100,000 employees, 300 skills each, ~3 person skills and ~5 ratings per employee (the first
 * organisation, the one the search scenarios use: 10 person skills and ~17 ratings per employee),
 * 1,000 positions per organisation (5 required skills, 3 candidates each), one API key per organisation,
 * two webhook endpoints on the first one, and 20,000 events per organisation (those of the first one delivered
 * to its endpoints). Safe to re-run: a finished seed is kept (`--reset` rebuilds it); missing events are added.
 *
 *   npm run bench:seed [-- --reset]      BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/skills_bench)
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { generateApiKey, hashApiKey } from '../src/auth/api-key-hash';
import { migrate } from '../src/database/migrate';
import { newId } from '../src/database/uuid';
import { ServiceKeys } from '../src/encryption/service-keys';
import {
  BENCH_DATABASE_URL,
  BenchKeys,
  EMPLOYEES_PER_ORGANISATION,
  KEYS_FILE,
  ORGANISATION_NAME_PREFIX,
  ORGANISATIONS,
  POSITIONS_PER_ORGANISATION,
  readBenchKeys,
  RECEIVER_PORT,
  SEED_KEY_LABEL,
  SKILLS_PER_ORGANISATION,
  timed,
} from './bench-env';
import { topUpEvents } from './events-seed';
import { FIRST_NAMES, LAST_NAMES, SKILL_LEVELS, SKILL_TOPICS, TITLES } from './names';

/** The tables filled in bulk: their secondary indexes are dropped first and built once at the end. */
const BULK_TABLES = ['employees', 'person_skills', 'ratings'];

async function main(): Promise<void> {
  const reset = process.argv.includes('--reset');
  const databaseName = new URL(BENCH_DATABASE_URL).pathname.slice(1);
  // Like the tests' guard: never drop or bulk-load a database that is not obviously the benchmark's.
  if (!databaseName.includes('bench')) throw new Error(`Refusing to seed "${databaseName}": its name lacks "bench"`);
  const started = Date.now();
  console.log(`Seeding ${BENCH_DATABASE_URL}`);

  await timed(reset ? 'drop and create the database' : 'create the database if missing', () =>
    prepareDatabase(databaseName, reset),
  );
  await timed('apply migrations and SQL functions', () => migrate(BENCH_DATABASE_URL));

  const client = new Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    const seeded = await seedState(client);
    if (seeded === 'partial') {
      throw new Error(
        'The database holds a partial seed (an earlier run stopped): run `npm run bench:seed -- --reset`',
      );
    }
    if (seeded === 'empty') {
      await seedData(client);
      await writeAccess(client);
    } else if (!(await accessFileMatches(client))) {
      await timed('recreate API keys and webhook endpoints (keys file lost)', () => writeAccess(client));
    } else {
      console.log('  already seeded: kept (use --reset to rebuild)');
    }
    await timed('events and their deliveries, where missing', () => topUpEvents(client));
  } finally {
    await client.end();
  }
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Keys: ${KEYS_FILE}`);
}

async function prepareDatabase(databaseName: string, reset: boolean): Promise<void> {
  const adminUrl = new URL(BENCH_DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    const quoted = `"${databaseName.replace(/"/g, '""')}"`;
    if (reset) await admin.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${quoted}`);
  } finally {
    await admin.end();
  }
}

/** 'done' once the seed's keys exist (its last step); 'partial' when organisations exist without them. */
async function seedState(client: Client): Promise<'empty' | 'partial' | 'done'> {
  const { rows } = await client.query<{ organisations: number; keys: number }>(
    `SELECT (SELECT count(*)::int FROM organisations WHERE name LIKE $1) AS organisations,
            (SELECT count(*)::int FROM api_keys WHERE name = $2) AS keys`,
    [`${ORGANISATION_NAME_PREFIX}%`, SEED_KEY_LABEL],
  );
  if (rows[0].keys >= ORGANISATIONS) return 'done';
  return rows[0].organisations > 0 ? 'partial' : 'empty';
}

async function seedData(client: Client): Promise<void> {
  await client.query(`SET synchronous_commit = off`);
  await client.query(`SET maintenance_work_mem = '1GB'`);
  await client.query(`SET work_mem = '256MB'`);
  // Skips the foreign-key triggers during the bulk load (superuser only); the data is consistent by construction.
  await client
    .query(`SET session_replication_role = replica`)
    .catch(() => console.log('  (FK triggers stay on: not superuser)'));
  await client.query(`
    CREATE FUNCTION pg_temp.uuid_v7(at timestamptz) RETURNS uuid LANGUAGE sql VOLATILE AS $$
      -- A v4 uuid with its first 48 bits replaced by the Unix time in ms and the version nibble set to 7.
      SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
               PLACING substring(int8send(floor(extract(epoch FROM at) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
             52, 1), 53, 1), 'hex')::uuid
    $$`);

  const indexes = await timed('drop secondary indexes of the bulk tables', () => dropSecondaryIndexes(client));
  await timed(`organisations (${ORGANISATIONS})`, () => insertOrganisations(client));
  await timed(`skills (${ORGANISATIONS * SKILLS_PER_ORGANISATION})`, () => insertSkills(client));
  await timed(`employees (${ORGANISATIONS * EMPLOYEES_PER_ORGANISATION})`, () => insertEmployees(client));
  await timed('person_skills (1 to 5 per employee, 10 in the first organisation)', () => insertPersonSkills(client));
  await timed('ratings (1 or 2 per person skill)', () => insertRatings(client));
  await timed('latest rating of each person skill', () => fillLatestRatings(client));
  await timed(`rebuild ${indexes.length} indexes (two connections)`, () => rebuildIndexes(indexes));
  await timed(`positions (${ORGANISATIONS * POSITIONS_PER_ORGANISATION}), required skills, replacements`, () =>
    insertPositions(client),
  );
  await client.query(`SET session_replication_role = origin`);
  await timed('employee counts per organisation', () => fillEmployeeCounts(client));
  await timed('employee_search (one row per employee)', () => fillEmployeeSearch(client));
  // VACUUM sets the visibility map, as autovacuum would on a live database, so counts can use index-only scans.
  await timed('VACUUM ANALYZE', () => client.query('VACUUM (ANALYZE)'));
  const counts = await client.query(
    `SELECT (SELECT count(*) FROM employees) AS employees, (SELECT count(*) FROM person_skills) AS person_skills,
            (SELECT count(*) FROM ratings) AS ratings, (SELECT count(*) FROM positions) AS positions,
            (SELECT count(*) FROM position_required_skills) AS required_skills,
            (SELECT count(*) FROM position_replacements) AS replacements,
            pg_size_pretty(pg_database_size(current_database())) AS database_size`,
  );
  console.log('  rows:', counts.rows[0]);
}

/**
 * The bulk load ran with triggers off, so the per-organisation counts the employee triggers keep are filled
 * here: each organisation's whole count in its slot 0 (the triggers spread later writes over the other slots).
 */
async function fillEmployeeCounts(client: Client): Promise<void> {
  const { rows } = await client.query(`SELECT to_regclass('organisation_employee_counts') AS name`);
  if (!rows[0].name) return;
  await client.query('BEGIN');
  await client.query(`DELETE FROM organisation_employee_counts`);
  await client.query(
    `INSERT INTO organisation_employee_counts (organisation_id, slot, total, active)
     SELECT organisation_id, 0, count(*), count(*) FILTER (WHERE left_at IS NULL) FROM employees GROUP BY organisation_id`,
  );
  await client.query('COMMIT');
}

/**
 * The bulk load ran with triggers off, so employee_search (migration 1763763300000) is filled here as its
 * migration's backfill does: in organisation order, so one organisation's rows lie together on disk.
 */
async function fillEmployeeSearch(client: Client): Promise<void> {
  const { rows } = await client.query(`SELECT to_regclass('employee_search') AS name`);
  if (!rows[0].name) return;
  await client.query(`TRUNCATE employee_search`);
  await client.query(
    `INSERT INTO employee_search (employee_id, organisation_id, created_at, updated_at, active, department_id, search_text)
     SELECT e.id, e.organisation_id, e.created_at, e.updated_at, e.left_at IS NULL, e.department_id,
            lower(e.first_name || ' ' || e.last_name || chr(1) || e.business_email || chr(1) || e.personnel_number)
       FROM employees e ORDER BY e.organisation_id, e.created_at, e.id`,
  );
}

async function dropSecondaryIndexes(client: Client): Promise<Array<{ name: string; definition: string }>> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexname AS name, i.indexdef AS definition
       FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename = ANY ($1)
        -- Kept: indexes that back a constraint (primary keys, the targets of composite foreign keys).
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
    [BULK_TABLES],
  );
  for (const index of rows) await client.query(`DROP INDEX "${index.name}"`);
  return rows;
}

/** Builds the indexes back on two connections, the trigram GIN (the slowest by far) first. */
async function rebuildIndexes(indexes: Array<{ name: string; definition: string }>): Promise<void> {
  const queue = [...indexes].sort(
    (a, b) => Number(b.definition.includes('gin')) - Number(a.definition.includes('gin')),
  );
  const worker = async () => {
    const connection = new Client({ connectionString: BENCH_DATABASE_URL });
    await connection.connect();
    try {
      await connection.query(`SET maintenance_work_mem = '1GB'`);
      for (let index = queue.shift(); index; index = queue.shift()) await connection.query(index.definition);
    } finally {
      await connection.end();
    }
  };
  await Promise.all([worker(), worker()]);
}

async function insertOrganisations(client: Client): Promise<void> {
  await client.query(
    `INSERT INTO organisations (id, name, created_at)
     SELECT pg_temp.uuid_v7(at), $1 || lpad(n::text, 2, '0'), at
       FROM generate_series(1, $2) n, LATERAL (SELECT timestamptz '2022-11-01 00:00:00+00' + n * interval '1 minute' AS at) t`,
    [ORGANISATION_NAME_PREFIX, ORGANISATIONS],
  );
  // Organisation number (0-based) → id, for the statements below.
  await client.query(
    `CREATE TEMP TABLE bench_orgs AS
     SELECT substr(name, length($1) + 1)::int - 1 AS ix, id, 'org' || substr(name, length($1) + 1) AS slug
       FROM organisations WHERE name LIKE $1 || '%'`,
    [ORGANISATION_NAME_PREFIX],
  );
}

async function insertSkills(client: Client): Promise<void> {
  await client.query(
    `INSERT INTO skills (id, organisation_id, name, description, rating_scale_min, rating_scale_max, rating_scale_type,
                         created_at, updated_at, name_key)
     SELECT pg_temp.uuid_v7(at), o.id, ($1::text[])[1 + j % 30] || ' ' || ($2::text[])[1 + j / 30],
            'Seeded skill ' || j, 0, 5, 'NUMERIC', at, at,
            -- The seeded names are plain ASCII words with single spaces: lower() is their nameKey.
            lower(($1::text[])[1 + j % 30] || ' ' || ($2::text[])[1 + j / 30])
       FROM bench_orgs o, generate_series(0, $3 - 1) j,
            LATERAL (SELECT timestamptz '2022-12-01 00:00:00+00' + (j * 10 + o.ix) * interval '1 minute' AS at) t`,
    [SKILL_TOPICS, SKILL_LEVELS, SKILLS_PER_ORGANISATION],
  );
  // Skill number within its organisation → id (skills were created in that order).
  await client.query(
    `CREATE TEMP TABLE bench_skills AS
     SELECT organisation_id, (row_number() OVER (PARTITION BY organisation_id ORDER BY created_at, id) - 1)::int AS ord, id
       FROM skills WHERE organisation_id IN (SELECT id FROM bench_orgs)`,
  );
  await client.query(`ALTER TABLE bench_skills ADD PRIMARY KEY (organisation_id, ord)`);
}

/**
 * Row t (0 … 999,999) is employee t / 10 of organisation t % 10, created 63 s after row t − 1 (two years in all),
 * inserted in creation order with a time-ordered id, as a live system would write them.
 */
async function insertEmployees(client: Client): Promise<void> {
  await client.query(
    `INSERT INTO employees (id, organisation_id, personnel_number, first_name, last_name, business_email, title, gender,
                            department_id, hired_at, left_at, is_hr_team_member, created_at, updated_at)
     SELECT pg_temp.uuid_v7(g.at), o.id, 'P' || lpad(g.i::text, 6, '0'), g.first_name, g.last_name,
            lower(g.first_name || '.' || g.last_name || '.' || g.i || '@' || o.slug || '.example.com'),
            CASE WHEN g.h1 % 10 <> 0 THEN ($3::text[])[1 + (g.h1 / 7) % cardinality($3::text[])] END,
            (ARRAY['female', 'male', 'diverse', NULL])[1 + g.h2 % 4],
            'DEP-' || lpad(((g.h2 / 4) % 40)::text, 3, '0'),
            g.at - ((g.h2 / 200) % 3650) * interval '1 day',
            CASE WHEN g.h2 % 20 = 7 THEN g.at + interval '90 days' END,
            g.h2 % 50 = 3, g.at, g.at
       FROM (SELECT t / $5 AS i, t % $5 AS ix, h1, h2,
                    timestamptz '2023-01-01 00:00:00+00' + t * interval '63113 ms' AS at,
                    ($1::text[])[1 + h1 % cardinality($1::text[])] AS first_name,
                    ($2::text[])[1 + (h1 / 1000) % cardinality($2::text[])] AS last_name
               FROM generate_series(0, $4 - 1) t,
                    LATERAL (SELECT hashint4(t)::bigint + 2147483648 AS h1, hashint4(t + 1000000007)::bigint + 2147483648 AS h2) h
             ) g
       JOIN bench_orgs o ON o.ix = g.ix
      ORDER BY g.at`,
    [FIRST_NAMES, LAST_NAMES, TITLES, ORGANISATIONS * EMPLOYEES_PER_ORGANISATION, ORGANISATIONS],
  );
}

/**
 * Employee i has 1 + i % 5 skills (3 on average), or 10 in the first organisation (what ranking its 100,000
 * employees against a position's skills is measured on), skill numbers (7i + 37j) % 300, distinct for j < 10.
 */
async function insertPersonSkills(client: Client): Promise<void> {
  await client.query(
    `INSERT INTO person_skills (id, organisation_id, employee_id, skill_id, created_at)
     SELECT pg_temp.uuid_v7(at), e.organisation_id, e.id, s.id, at
       FROM employees e
       JOIN bench_orgs o ON o.id = e.organisation_id
       CROSS JOIN LATERAL (SELECT substr(e.personnel_number, 2)::int AS i) n
       CROSS JOIN LATERAL generate_series(0, CASE WHEN o.ix = 0 THEN 9 ELSE n.i % 5 END) j
       CROSS JOIN LATERAL (SELECT e.created_at + (j + 1) * interval '1 day' AS at) t
       JOIN bench_skills s ON s.organisation_id = e.organisation_id AND s.ord = (n.i * 7 + j * 37) % $1`,
    [SKILLS_PER_ORGANISATION],
  );
}

/** One or two ratings per person skill (5 per employee on average), 30 days apart; scores 0 … 5. */
async function insertRatings(client: Client): Promise<void> {
  await client.query(
    `INSERT INTO ratings (id, organisation_id, person_skill_id, employee_id, skill_id, score, rating_type, comment, created_at)
     SELECT pg_temp.uuid_v7(at), ps.organisation_id, ps.id, ps.employee_id, ps.skill_id,
            get_byte(b.bytes, 9 + r) % 6,
            (ARRAY['MANAGER_EVALUATION', 'SELF_ASSESMENT', 'LLM_RATING'])[1 + get_byte(b.bytes, 12 + r) % 3],
            CASE WHEN get_byte(b.bytes, 8) % 10 = 0 THEN 'Seeded comment' END, at
       FROM person_skills ps
       CROSS JOIN LATERAL (SELECT uuid_send(ps.id) AS bytes) b
       CROSS JOIN LATERAL generate_series(1, CASE WHEN get_byte(b.bytes, 15) % 3 = 0 THEN 1 ELSE 2 END) r
       CROSS JOIN LATERAL (SELECT ps.created_at + (r - 1) * interval '30 days' AS at) t`,
  );
}

/**
 * The bulk load ran with triggers off, so the latest rating each person skill keeps (migration 1763763800000)
 * is filled here as that migration's backfill does, before the indexes are built again.
 */
async function fillLatestRatings(client: Client): Promise<void> {
  await client.query(
    `UPDATE person_skills ps
        SET latest_rating_id = latest.id, latest_score = latest.score, latest_rated_at = latest.created_at
       FROM (SELECT DISTINCT ON (person_skill_id) person_skill_id, id, score, created_at
               FROM ratings
              ORDER BY person_skill_id, created_at DESC, id DESC) latest
      WHERE ps.id = latest.person_skill_id`,
  );
}

/** Position p of each organisation: 5 required skills (11p + 59j) % 300, candidates (331p + 33331c) % 100,000. */
async function insertPositions(client: Client): Promise<void> {
  const employee = (expression: string) =>
    `e.organisation_id = o.organisation_id AND e.personnel_number = 'P' || lpad(((${expression}) % ${EMPLOYEES_PER_ORGANISATION})::text, 6, '0')`;
  await client.query(
    `INSERT INTO positions (id, organisation_id, ref, name, description, department, status, must_be_filled_by,
                            replaces_employee_id, created_at, updated_at)
     SELECT pg_temp.uuid_v7(at), o.organisation_id, 'POS-' || lpad(p::text, 4, '0'),
            ($1::text[])[1 + p % cardinality($1::text[])] || ' ' || p, 'Seeded position',
            'DEP-' || lpad((p % 40)::text, 3, '0'), (ARRAY['OPEN', 'IN_PROGRESS', 'FILLED', 'CLOSED'])[1 + p % 4],
            at + interval '180 days', CASE WHEN p % 3 = 0 THEN e.id END, at, at
       FROM (SELECT id AS organisation_id, ix FROM bench_orgs) o
       CROSS JOIN generate_series(0, $2 - 1) p
       CROSS JOIN LATERAL (SELECT timestamptz '2024-06-01 00:00:00+00' + (p * 10 + o.ix) * interval '1 hour' AS at) t
       LEFT JOIN employees e ON ${employee('p * 97')}
      ORDER BY at`,
    [TITLES, POSITIONS_PER_ORGANISATION],
  );
  await client.query(
    `CREATE TEMP TABLE bench_positions AS
     SELECT id, organisation_id, substr(ref, 5)::int AS p, created_at FROM positions
      WHERE organisation_id IN (SELECT id FROM bench_orgs)`,
  );
  await client.query(
    `INSERT INTO position_required_skills (position_id, skill_id, organisation_id, minimum_rating)
     SELECT o.id, s.id, o.organisation_id, 1 + (o.p + j) % 5
       FROM bench_positions o CROSS JOIN generate_series(0, 4) j
       JOIN bench_skills s ON s.organisation_id = o.organisation_id AND s.ord = (o.p * 11 + j * 59) % $1`,
    [SKILLS_PER_ORGANISATION],
  );
  await client.query(
    `INSERT INTO position_replacements (id, organisation_id, position_id, candidate_employee_id, ready_at, status,
                                        created_at, updated_at)
     SELECT pg_temp.uuid_v7(o.created_at), o.organisation_id, o.id, e.id, o.created_at + (c + 1) * interval '30 days',
            (ARRAY['PROPOSED', 'APPROVED', 'REJECTED'])[1 + (o.p + c) % 3], o.created_at, o.created_at
       FROM bench_positions o CROSS JOIN generate_series(0, 2) c
       JOIN employees e ON ${employee('o.p * 331 + c * 33331')}`,
  );
}

/** True when the keys file names this database's seed keys (the clear keys are kept nowhere else). */
async function accessFileMatches(client: Client): Promise<boolean> {
  if (!existsSync(KEYS_FILE)) return false;
  const keys = readBenchKeys();
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM api_keys WHERE name = $1 AND revoked_at IS NULL AND key_hash = ANY ($2)`,
    [SEED_KEY_LABEL, keys.organisations.map((organisation) => hashApiKey(organisation.apiKey))],
  );
  return rows[0].n === ORGANISATIONS;
}

/**
 * One API key per organisation (stored as ApiKeysService does: the SHA-256 hex of the clear key; scoped to
 * what the scenarios do, read and write) and two
 * endpoints subscribed to skill.rated on the first organisation, their secrets sealed as the webhooks module
 * seals them; the clear values go to the git-ignored keys file. Replaces what an earlier seed made.
 */
async function writeAccess(client: Client): Promise<void> {
  const webhookSecretKey = randomBytes(32);
  const { rows: organisations } = await client.query<{ id: string; name: string }>(
    `SELECT id, name FROM organisations WHERE name LIKE $1 || '%' ORDER BY name`,
    [ORGANISATION_NAME_PREFIX],
  );
  const keys: BenchKeys = {
    webhookSecretKey: webhookSecretKey.toString('hex'),
    organisations: [],
    webhookEndpoints: [],
  };
  await client.query('BEGIN');
  await client.query(`DELETE FROM api_keys WHERE name = $1`, [SEED_KEY_LABEL]);
  for (const organisation of organisations) {
    const apiKey = generateApiKey();
    await client.query(
      `INSERT INTO api_keys (id, organisation_id, name, key_hash, scopes, created_at)
       VALUES (gen_random_uuid(), $1, $2, $3, ARRAY['read', 'write'], now())`,
      [organisation.id, SEED_KEY_LABEL, hashApiKey(apiKey)],
    );
    keys.organisations.push({ ...organisation, apiKey });
  }
  const { rows: table } = await client.query(`SELECT to_regclass('webhook_endpoints') AS name`);
  if (table[0].name) {
    const first = organisations[0].id;
    await client.query(`DELETE FROM webhook_endpoints WHERE organisation_id = $1`, [first]);
    for (const path of ['a', 'b']) {
      const id = newId();
      const url = `https://127.0.0.1:${RECEIVER_PORT}/hooks/${path}`;
      const secret = randomBytes(24).toString('base64url');
      await client.query(
        `INSERT INTO webhook_endpoints (id, organisation_id, url, events, secret_sealed, created_at)
         VALUES ($1, $2, $3, ARRAY['skill.rated'], $4, now())`,
        [id, first, url, new ServiceKeys({ serviceSecretKey: webhookSecretKey }).seal(secret, id)],
      );
      keys.webhookEndpoints.push({ id, url, secret });
    }
  } else {
    console.log('  webhook_endpoints does not exist (webhooks migration missing): no endpoints seeded');
  }
  await client.query('COMMIT');
  writeFileSync(KEYS_FILE, JSON.stringify(keys, null, 2), { mode: 0o600 });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
