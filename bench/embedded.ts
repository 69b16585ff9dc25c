import { Client } from 'pg';
import { generateApiKey, hashApiKey } from '../src/auth/api-key-hash';
import { startEmbeddedDatabase } from '../src/database/embedded-database';
import { migrate } from '../src/database/migrate';
import { timed } from './bench-env';
import { FIRST_NAMES, LAST_NAMES } from './names';
import type { Sample } from './sample';

export const EMBEDDED_EMPLOYEES = 10_000;
const EMBEDDED_SKILLS = 50;
/** Person skills per employee, each with one rating. */
const SKILLS_PER_EMPLOYEE = 3;

/**
 * The embedded profile's data, written before the service starts: opens the PGlite database in `dataDir` as the
 * service does (its migrations included), fills one organisation with 10,000 employees, 50 skills and 3 rated
 * skills per employee, and one API key, then closes it for the service to open. Answers what the scenarios
 * rotate over; there are no positions, events, deliveries or webhook endpoints.
 */
export async function seedEmbedded(dataDir: string): Promise<Sample> {
  const database = await startEmbeddedDatabase(dataDir);
  try {
    await timed('migrations', () => migrate(database.url));
    await database.whenIdle();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      return await timed(
        `1 organisation, ${EMBEDDED_EMPLOYEES} employees, ${EMBEDDED_SKILLS} skills, ratings`,
        async () => {
          await client.query('BEGIN');
          const sample = await fill(client);
          await client.query('COMMIT');
          return sample;
        },
      );
    } finally {
      await client.end();
    }
  } finally {
    await database.whenIdle();
    await database.close();
  }
}

async function fill(client: Client): Promise<Sample> {
  const {
    rows: [organisation],
  } = await client.query<{ id: string }>(
    `INSERT INTO organisations (id, name, created_at) VALUES (gen_random_uuid(), 'bench-embedded', now()) RETURNING id`,
  );
  const apiKey = generateApiKey();
  await client.query(
    `INSERT INTO api_keys (id, organisation_id, name, key_hash, scopes, created_at)
     VALUES (gen_random_uuid(), $1, 'bench', $2, ARRAY['read', 'write'], now())`,
    [organisation.id, hashApiKey(apiKey)],
  );
  await client.query(
    `INSERT INTO skills (id, organisation_id, name, description, rating_scale_min, rating_scale_max, rating_scale_type,
                         created_at, updated_at, name_key)
     SELECT gen_random_uuid(), $1, 'Skill ' || j, 'Seeded skill', 0, 5, 'NUMERIC', now(), now(), 'skill ' || j
       FROM generate_series(1, $2) j`,
    [organisation.id, EMBEDDED_SKILLS],
  );
  // Employee i: names from the full seed's vocabulary, created a minute after employee i - 1.
  await client.query(
    `INSERT INTO employees (id, organisation_id, personnel_number, first_name, last_name, business_email,
                            is_hr_team_member, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'E' || lpad(i::text, 5, '0'), first_name, last_name,
            lower(first_name || '.' || last_name || '.' || i || '@embedded.example.com'), false, at, at
       FROM generate_series(1, $4) i,
            LATERAL (SELECT ($2::text[])[1 + (i * 7) % cardinality($2::text[])] AS first_name,
                            ($3::text[])[1 + (i * 13) % cardinality($3::text[])] AS last_name,
                            now() - ($4 - i) * interval '1 minute' AS at) n`,
    [organisation.id, FIRST_NAMES, LAST_NAMES, EMBEDDED_EMPLOYEES],
  );
  await client.query(
    `WITH skill AS (SELECT id, (row_number() OVER (ORDER BY name) - 1)::int AS ord FROM skills WHERE organisation_id = $1),
          employee AS (SELECT id, substr(personnel_number, 2)::int AS i FROM employees WHERE organisation_id = $1)
     INSERT INTO person_skills (id, organisation_id, employee_id, skill_id, created_at)
     SELECT gen_random_uuid(), $1, employee.id, skill.id, now()
       FROM employee CROSS JOIN generate_series(0, $3 - 1) j
       JOIN skill ON skill.ord = (employee.i * 7 + j * 17) % $2`,
    [organisation.id, EMBEDDED_SKILLS, SKILLS_PER_EMPLOYEE],
  );
  await client.query(
    `INSERT INTO ratings (id, organisation_id, person_skill_id, employee_id, skill_id, score, rating_type, created_at)
     SELECT gen_random_uuid(), $1, id, employee_id, skill_id, abs(hashtext(id::text)) % 6, 'MANAGER_EVALUATION', now()
       FROM person_skills WHERE organisation_id = $1`,
    [organisation.id],
  );
  const employeeIds = await client.query<{ id: string }>(
    `SELECT id FROM employees WHERE organisation_id = $1 ORDER BY random() LIMIT 2000`,
    [organisation.id],
  );
  const skillIds = await client.query<{ id: string }>(`SELECT id FROM skills WHERE organisation_id = $1`, [
    organisation.id,
  ]);
  const authorization = `Bearer ${apiKey}`;
  const ids = employeeIds.rows.map((row) => row.id);
  return {
    employees: ids.map((id) => ({ id, authorization })),
    positions: [],
    organisations: [authorization],
    rated: { authorization, employeeIds: ids, skillIds: skillIds.rows.map((row) => row.id), versioned: [] },
    events: [],
    deliveries: [],
    updatedSince: [],
    firstCursorPages: [],
    deepCursorPages: [],
    searchCursorPages: [],
  };
}
