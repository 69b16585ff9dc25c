/**
 * The raw baseline: node:http + pg, no framework, no ORM, running the SQL the service runs for six
 * endpoints, so `npm run bench` can report the service as a fraction of what the database and Node allow.
 *
 *   GET  /api/v1/employees/:id          API-key lookup by hash (then its expiry and scope), the employee with
 *                                        its skills and latest ratings (employee_detail)
 *   GET  /api/v1/employees?search=&page=&limit=   one page (employee_search trigram LIKE) + exact count
 *   POST /api/v1/employees/:id/ratings  one transaction: the checked rating (insert_rating_if_rateable), then
 *                                        the event and its outbox rows sent with COMMIT
 *   POST /api/v1/employees              one transaction: employee insert (insert_employees), then the event and
 *                                        its outbox rows sent with COMMIT; with an Idempotency-Key also the key's
 *                                        claim (claim_idempotency_key, sent with BEGIN; the service sends it
 *                                        alone) and the kept response (sent with COMMIT, as the service does)
 *   PATCH /api/v1/employees/:id         one transaction: the row locked and read, the service's UPDATE (which
 *                                        writes nothing when no value changes), then employee.updated with its
 *                                        `changes` and its outbox rows sent with COMMIT
 *   GET  /api/v1/positions/:id/candidates?page=&limit=&isActive=   the position, its required skills, then the
 *                                        ranked page and the employee count concurrently (the service's
 *                                        statements, built by its repositories)
 *
 * The statements are the service's own, calling the same SQL functions (src/<feature>/sql), sent in the same round
 * trips (a pipelining pool, as the service's), so that the two differ only in what runs in Node.
 *
 * Every request looks its key up in the database (no cache): the baseline does at least the service's work.
 * bench/framework-floor.ts serves the same handler (`respond`) behind a bare NestJS app.
 * Env: DATABASE_URL, PORT (3901). Started by bench/run.ts; not part of the service.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { escapeLiteral, Pool, PoolClient, QueryResult } from 'pg';
import type { EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../src/database/database';
import type { EmployeeFields } from '../src/employees/dto/employee.response';
import { employeeLockStatement, EmployeesRepository } from '../src/employees/employees.repository';
import { deriveKey } from '../src/encryption/service-keys';
import { Changes, changesBetween } from '../src/events/changes';
import { recordingStatement } from '../src/events/event-recording';
import { requestFingerprint } from '../src/idempotency/request-fingerprint';
import { CandidatesRepository } from '../src/positions/candidates.repository';
import { PositionsRepository } from '../src/positions/positions.repository';
import { computeSkillsGap, summariseSkillsGap } from '../src/positions/skills-gap';
import { DELIVERIES_OF_RECORDED_EVENTS } from '../src/webhooks/webhook-fan-out';

/** The service's pool (POSTGRES_POOL_SIZE, src/runtime.ts): a smaller one would starve the baseline, not bound it. */
const SERVICE_POOL_SIZE = 10;
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.BASELINE_POOL_SIZE ?? SERVICE_POOL_SIZE),
  pipeline: true,
});
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RATING_TYPES = new Set(['MANAGER_EVALUATION', 'SELF_ASSESMENT', 'LLM_RATING']);

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

async function organisationOf(request: IncomingMessage): Promise<string> {
  const match = /^bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
  if (!match) throw new HttpError(401, 'UNAUTHORIZED');
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const { rows } = await pool.query<{ organisation_id: string; scopes: string[]; expires_at: Date | null }>(
    'SELECT organisation_id, scopes, expires_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
    [hash],
  );
  const [key] = rows;
  if (!key || (key.expires_at !== null && key.expires_at.getTime() <= Date.now())) {
    throw new HttpError(401, 'UNAUTHORIZED');
  }
  if (!key.scopes.includes(request.method === 'GET' ? 'read' : 'write')) throw new HttpError(403, 'FORBIDDEN');
  return key.organisation_id;
}

async function getEmployee(organisationId: string, id: string): Promise<unknown> {
  const { rows } = await pool.query(EMPLOYEE_DETAIL, [organisationId, id]);
  return employeeDetail(rows);
}

/** GET /employees/{id}'s statement: the employee with its skills and latest ratings, one row per skill. */
export const EMPLOYEE_DETAIL = 'SELECT * FROM employee_detail($1, $2)';

/** The EmployeeDetail of employee_detail's rows; 404 when there are none. */
export function employeeDetail(rows: Record<string, any>[]): unknown {
  if (rows.length === 0) throw new HttpError(404, 'NOT_FOUND');
  const [employee] = rows;
  return {
    id: employee.id,
    personnelNumber: employee.personnelNumber,
    firstName: employee.firstName,
    lastName: employee.lastName,
    businessEmail: employee.businessEmail,
    title: employee.title,
    gender: employee.gender,
    departmentId: employee.departmentId,
    hiredAt: employee.hiredAt?.toISOString() ?? null,
    leftAt: employee.leftAt?.toISOString() ?? null,
    isHRTeamMember: employee.isHRTeamMember,
    skills: rows
      .filter((row) => row.personSkillId !== null)
      .map((row) => ({
        personSkillId: row.personSkillId,
        skillId: row.skillId,
        skillName: row.skillName,
        latestRating:
          row.score === null
            ? null
            : { score: row.score, ratingType: row.ratingType, createdAt: row.ratedAt.toISOString() },
      })),
  };
}

async function listEmployees(
  organisationId: string,
  params: URLSearchParams,
): Promise<{ data: unknown[]; meta: object }> {
  const page = Number(params.get('page') ?? 1);
  const limit = Number(params.get('limit') ?? 20);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new HttpError(400, 'VALIDATION_ERROR');
  }
  const { page: pageStatement, count } = employeesPage(organisationId, page, limit, params.get('search'));
  const rows = await pool.query(pageStatement.text, pageStatement.values);
  const counted = await pool.query<{ total: number }>(count.text, count.values);
  return { data: rows.rows.map(toEmployee), meta: pageMeta(counted.rows[0].total, page, limit) };
}

/** A page of the employees list and its exact count, as the employees service reads them. */
export function employeesPage(
  organisationId: string,
  page: number,
  limit: number,
  search: string | null,
): { page: Statement; count: Statement } {
  // As the employees service: a search filters employee_search (its narrow rows and trigram index), then
  // reads the page's employees by id.
  const filters = ['f.organisation_id = $1'];
  const values: unknown[] = [organisationId];
  if (search !== null) {
    values.push(search.replace(/[\\%_]/g, (character) => `\\${character}`));
    filters.push(`f.search_text LIKE '%' || lower($2) || '%'`);
  }
  const [from, id] = search === null ? ['employees f', 'f.id'] : ['employee_search f', 'f.employee_id'];
  const where = filters.join(' AND ');
  return {
    page: {
      text: `SELECT e.* FROM (SELECT ${id} AS id FROM ${from} WHERE ${where}
                       ORDER BY f.created_at, ${id} LIMIT ${limit} OFFSET ${(page - 1) * limit}) page
       JOIN employees e ON e.id = page.id
      ORDER BY e.created_at, e.id`,
      values,
    },
    count: { text: `SELECT count(*)::int AS total FROM ${from} WHERE ${where}`, values },
  };
}

export function pageMeta(total: number, page: number, limit: number): object {
  const totalPages = Math.ceil(total / limit);
  return { total, page, limit, totalPages, hasNextPage: page < totalPages, hasPrevPage: page > 1 };
}

async function rate(organisationId: string, employeeId: string, input: Record<string, unknown>): Promise<unknown> {
  const { skillId, score, ratingType, comment = null } = input;
  if (typeof skillId !== 'string' || !Number.isInteger(score) || !RATING_TYPES.has(ratingType as string)) {
    throw new HttpError(400, 'VALIDATION_ERROR');
  }
  if (!UUID.test(skillId)) throw new HttpError(404, 'NOT_FOUND');
  const rating = { skillId, score, ratingType, comment } as NewRating;
  return inTransaction([], async (client) => {
    const statement = ratingInsert(organisationId, employeeId, rating);
    const { rows } = await client.query<RatedRow>(statement.text, statement.values);
    return ratingOutcome(organisationId, employeeId, statement, rows);
  });
}

/** The rating a POST /employees/{id}/ratings asks for, its skill id a UUID. */
export interface NewRating {
  skillId: string;
  score: number;
  ratingType: string;
  comment?: string | null;
}

/** What insert_rating_if_rateable answers: the person skill rated, none when the pair cannot be rated. */
export type RatedRow = { personSkillId: string; skillName: string };

/** The checked rating (insert_rating_if_rateable): its values are those of the answer and event. */
export function ratingInsert(organisationId: string, employeeId: string, rating: NewRating): Statement {
  const { skillId, score, ratingType, comment = null } = rating;
  return {
    text: 'SELECT * FROM insert_rating_if_rateable($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    values: [uuidv7(), organisationId, employeeId, skillId, new Date(), uuidv7(), score, ratingType, comment],
  };
}

/** The rating answered and skill.rated sent with COMMIT, from the insert's statement and rows. */
export function ratingOutcome(
  organisationId: string,
  employeeId: string,
  { values }: Statement,
  rows: RatedRow[],
): { answer: unknown; closing: Statement[] } {
  // The bench rates only what can be rated; the service takes its checks one by one to say why it could not.
  if (rows.length === 0) throw new HttpError(404, 'NOT_FOUND');
  const [, , , skillId, now, ratingId, score, ratingType, comment] = values! as [
    unknown,
    unknown,
    unknown,
    string,
    Date,
    string,
    number,
    string,
    string | null,
  ];
  const rating = {
    ratingId,
    personSkillId: rows[0].personSkillId,
    skillId,
    skillName: rows[0].skillName,
    score,
    ratingType,
    comment,
    createdAt: now.toISOString(),
  };
  return {
    answer: rating,
    closing: [eventStatement(organisationId, 'skill.rated', now, { employeeId, rating }, employeeId)],
  };
}

const KEPT_FOR_MS = 24 * 60 * 60 * 1000;
/** The service derives its fingerprint key from SERVICE_SECRET_KEY; any key costs the same HMAC. */
export const FINGERPRINT_KEY = deriveKey(randomBytes(32), 'request-fingerprints');

export interface Answer {
  status: number;
  payload: object;
}

/** POST /employees as the service runs it, with what its idempotency interceptor adds when `key` is given. */
async function createEmployee(organisationId: string, input: Record<string, unknown>, key?: string): Promise<Answer> {
  const { personnelNumber, firstName, lastName, businessEmail } = input;
  if ([personnelNumber, firstName, lastName, businessEmail].some((field) => typeof field !== 'string')) {
    throw new HttpError(400, 'VALIDATION_ERROR');
  }
  const fingerprint = requestFingerprint(FINGERPRINT_KEY, 'POST', '/api/v1/employees', input);
  const now = new Date();
  // With a key the claim travels with BEGIN (the service sends it alone: one round trip more) and the kept response
  // with COMMIT, as the service sends it.
  const opening = key === undefined ? [] : [claimStatement(organisationId, key, now)];
  return inTransaction(opening, async (client, claim) => {
    if (key !== undefined) {
      const kept = keptAnswer(claim[0] as KeptRow[]);
      if (kept) return { answer: kept, closing: [] };
    }
    const employee = newEmployee(input as unknown as NewEmployee, now);
    const insert = employeeInsert(organisationId, employee, now);
    try {
      await client.query(insert.text, insert.values);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new HttpError(409, 'CONFLICT');
      throw error;
    }
    return createdOutcome(organisationId, employee, now, key === undefined ? undefined : { key, fingerprint });
  });
}

/** The fields of a POST /employees the bench sends. */
export interface NewEmployee {
  personnelNumber: string;
  firstName: string;
  lastName: string;
  businessEmail: string;
}

/** What claim_idempotency_key answers. */
export type KeptRow = { claimed: boolean; status_code: number | null; body: string | null };

/** The kept answer of a key's claim, none when the key is new; 409 while another request holds the key. */
export function keptAnswer([kept]: KeptRow[]): Answer | undefined {
  if (!kept.claimed) throw new HttpError(409, 'CONFLICT');
  return kept.status_code === null ? undefined : { status: kept.status_code, payload: JSON.parse(kept.body!) };
}

export function newEmployee({ personnelNumber, firstName, lastName, businessEmail }: NewEmployee, now: Date) {
  return {
    id: uuidv7(),
    personnelNumber,
    firstName,
    lastName,
    businessEmail,
    title: null,
    gender: null,
    departmentId: null,
    hiredAt: null,
    leftAt: null,
    isHRTeamMember: false,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

/** The service's insert (insert_employees, one element per array). */
export function employeeInsert(organisationId: string, employee: ReturnType<typeof newEmployee>, now: Date): Statement {
  const { id, personnelNumber, firstName, lastName, businessEmail } = employee;
  const values = [
    id,
    personnelNumber,
    firstName,
    lastName,
    businessEmail,
    null,
    null,
    null,
    null,
    null,
    false,
    now,
    now,
  ];
  return {
    text: 'SELECT insert_employees($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)',
    values: [organisationId, ...values.map((value) => [value])],
  };
}

/** The 201 and what goes with COMMIT: employee.created, and with a key the kept response. */
export function createdOutcome(
  organisationId: string,
  employee: ReturnType<typeof newEmployee>,
  now: Date,
  keyed?: { key: string; fingerprint: string },
): { answer: Answer; closing: Statement[] } {
  const answer = { status: 201, payload: { success: true, data: employee } };
  const event = eventStatement(organisationId, 'employee.created', now, employee, employee.id);
  const closing = keyed ? [event, keepStatement(organisationId, keyed.key, keyed.fingerprint, answer, now)] : [event];
  return { answer, closing };
}

/** The service's claim (IdempotencyKeysRepository.claim): its SQL function, the key's lock and kept response. */
export function claimStatement(organisationId: string, key: string, now: Date): string {
  const [organisation, claimed, at] = [organisationId, key, now.toISOString()].map(escapeLiteral);
  return `SELECT claimed, status_code, body FROM claim_idempotency_key(${organisation}, ${claimed}, ${at})`;
}

/** A statement and its parameters, as pg takes them. */
export interface Statement {
  text: string;
  values?: unknown[];
}

/** The service's kept response (IdempotencyKeysRepository.keep). */
export function keepStatement(
  organisationId: string,
  key: string,
  fingerprint: string,
  answer: Answer,
  now: Date,
): Statement {
  const values = [
    organisationId,
    key,
    fingerprint,
    String(answer.status),
    JSON.stringify(answer.payload),
    now.toISOString(),
    new Date(now.getTime() + KEPT_FOR_MS).toISOString(),
  ].map(escapeLiteral);
  return {
    text: `INSERT INTO idempotency_keys (organisation_id, key, fingerprint, status_code, body, created_at, expires_at)
           VALUES (${values.join(', ')})
           ON CONFLICT (organisation_id, key) DO UPDATE
              SET fingerprint = excluded.fingerprint, status_code = excluded.status_code, body = excluded.body,
                  created_at = excluded.created_at, expires_at = excluded.expires_at`,
  };
}

/** A traceparent of a new trace, as the service stores with each event of a request that brought none. */
function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

/** Who made the change, as the service's events say it: the key's id (any id costs the same). */
const BASELINE_ACTOR = { type: 'api_key' as const, id: '00000000-0000-0000-0000-000000000000' };

/**
 * The service's outbox write, sent with COMMIT: its own recording statement (the event row), with the fan-out
 * webhooks/ registers (one delivery per subscribed endpoint).
 */
export function eventStatement(
  organisationId: string,
  name: string,
  occurredAt: Date,
  data: unknown,
  employeeId: string,
  changes?: Changes,
): Statement {
  const event = {
    name,
    occurredAt,
    data,
    changes,
    employeeId,
    actor: BASELINE_ACTOR,
    requestId: randomUUID(),
    traceparent: newTraceparent(),
  };
  return recordingStatement(organisationId, [event], DELIVERIES_OF_RECORDED_EVENTS).statement;
}

/**
 * One transaction. `opening` statements travel with BEGIN in one message (their rows go to `work`), and the
 * `closing` ones `work` returns are sent with COMMIT, not waited for (the pool pipelines): one round trip each,
 * as the service sends them.
 */
async function inTransaction<T>(
  opening: string[],
  work: (client: PoolClient, opened: object[][]) => Promise<{ answer: T; closing: Statement[] }>,
): Promise<T> {
  const client = await pool.connect();
  const send = async (statements: string[]) => {
    const results = (await client.query(statements.join(';\n'))) as unknown as QueryResult | QueryResult[];
    return (Array.isArray(results) ? results : [results]).map((result) => result.rows as object[]);
  };
  try {
    const [, ...opened] = await send(['BEGIN', ...opening]);
    const { answer, closing } = await work(client, opened);
    await Promise.all([...closing.map(({ text, values }) => client.query(text, values)), client.query('COMMIT')]);
    return answer;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

export function toEmployee(row: Record<string, any>): Record<string, unknown> {
  return {
    id: row.id,
    personnelNumber: row.personnel_number,
    firstName: row.first_name,
    lastName: row.last_name,
    businessEmail: row.business_email,
    title: row.title,
    gender: row.gender,
    departmentId: row.department_id,
    hiredAt: row.hired_at?.toISOString() ?? null,
    leftAt: row.left_at?.toISOString() ?? null,
    isHRTeamMember: row.is_hr_team_member,
  };
}

/**
 * pg behind the one method the service's repositories query with, answering as TypeORM's EntityManager.query
 * does (the rows; for an UPDATE or DELETE, the rows and their count): the baseline sends their statements, built
 * by their own code, where it does not write the SQL out itself.
 */
function pgManager(queryable: Pool | PoolClient): EntityManager {
  const query = async (text: string, values?: unknown[]) => {
    const result = await queryable.query(text, values);
    return result.command === 'UPDATE' || result.command === 'DELETE' ? [result.rows, result.rowCount] : result.rows;
  };
  return { query } as unknown as EntityManager;
}

const repositoryDatabase = {
  manager: (transaction?: EntityManager) => transaction ?? pgManager(pool),
} as unknown as Database;
const employeesRepository = new EmployeesRepository(repositoryDatabase);
const positionsRepository = new PositionsRepository(repositoryDatabase);
const candidatesRepository = new CandidatesRepository(repositoryDatabase);

/** An employee as the service answers it (toEmployeeResponse), from the repositories' camel-case rows. */
export function employeeFromFields(employee: EmployeeFields): Record<string, unknown> {
  return {
    id: employee.id,
    personnelNumber: employee.personnelNumber,
    firstName: employee.firstName,
    lastName: employee.lastName,
    businessEmail: employee.businessEmail,
    title: employee.title,
    gender: employee.gender,
    departmentId: employee.departmentId,
    hiredAt: employee.hiredAt?.toISOString() ?? null,
    leftAt: employee.leftAt?.toISOString() ?? null,
    isHRTeamMember: employee.isHRTeamMember,
    createdAt: employee.createdAt.toISOString(),
    updatedAt: employee.updatedAt.toISOString(),
  };
}

/**
 * PATCH /employees/:id as the service runs it: the row locked and read (the service's TypeORM query builder sends
 * the same SELECT … FOR UPDATE with its own column aliases), its UPDATE, and employee.updated with COMMIT. The bench
 * changes the title; other fields are the service's ValidationPipe's business.
 */
async function updateEmployee(organisationId: string, id: string, input: Record<string, unknown>): Promise<unknown> {
  const { title } = input;
  if (Object.keys(input).some((field) => field !== 'title') || (typeof title !== 'string' && title !== null)) {
    throw new HttpError(400, 'VALIDATION_ERROR');
  }
  return inTransaction([], async (client) => {
    const select = employeeLockStatement(organisationId, id);
    const { rows } = await client.query<EmployeeFields>(select.text, select.values);
    return titleChange(organisationId, id, rows, title, (changed, now) =>
      employeesRepository.update(organisationId, changed, now, pgManager(client)),
    );
  });
}

/**
 * The new title written by `update` (the service's repository, which writes nothing when no value changes), the
 * employee answered, and employee.updated with its `changes` sent with COMMIT when it wrote.
 */
export async function titleChange(
  organisationId: string,
  id: string,
  rows: EmployeeFields[],
  title: string | null,
  update: (changed: EmployeeFields & { organisationId: string }, now: Date) => Promise<boolean>,
): Promise<{ answer: unknown; closing: Statement[] }> {
  if (rows.length === 0) throw new HttpError(404, 'NOT_FOUND');
  const before = employeeFromFields(rows[0]);
  const now = new Date();
  const changed = { ...rows[0], organisationId, title };
  if (!(await update(changed, now))) return { answer: before, closing: [] };
  const after = employeeFromFields({ ...changed, updatedAt: now });
  const event = eventStatement(organisationId, 'employee.updated', now, after, id, changesBetween(before, after));
  return { answer: after, closing: [event] };
}

/** GET /positions/:id/candidates in page mode, as the service's PositionsService.candidates reads it. */
async function listCandidates(
  organisationId: string,
  positionId: string,
  params: URLSearchParams,
): Promise<{ data: unknown[]; meta: object }> {
  const page = Number(params.get('page') ?? 1);
  const limit = Number(params.get('limit') ?? 20);
  const isActive = params.get('isActive') !== 'false';
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new HttpError(400, 'VALIDATION_ERROR');
  }
  if (!(await positionsRepository.findById(organisationId, positionId))) throw new HttpError(404, 'NOT_FOUND');
  const requiredSkills =
    (await positionsRepository.requiredSkillsOf(organisationId, [positionId])).get(positionId) ?? [];
  const unrated = summariseSkillsGap(computeSkillsGap(requiredSkills, new Map()));
  const window = { after: null, offset: (page - 1) * limit, fetch: limit + 1, counted: true };
  const [ranked, total] = await Promise.all([
    candidatesRepository.rank(organisationId, requiredSkills, unrated, isActive, window),
    employeesRepository.countAll(organisationId, isActive),
  ]);
  const data = ranked.slice(0, limit).map(({ employee, latestScoreBySkillId }) => {
    const skillsGap = computeSkillsGap(requiredSkills, latestScoreBySkillId);
    return { employee: employeeFromFields(employee), ...summariseSkillsGap(skillsGap), skillsGap };
  });
  const totalPages = Math.ceil(total / limit);
  return { data, meta: { total, page, limit, totalPages, hasNextPage: page < totalPages, hasPrevPage: page > 1 } };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'VALIDATION_ERROR');
  }
}

async function route(request: IncomingMessage): Promise<{ status: number; payload: object }> {
  const url = new URL(request.url ?? '/', 'http://baseline');
  const path = url.pathname.split('/').filter(Boolean);
  if (path[0] !== 'api' || path[1] !== 'v1' || !['employees', 'positions'].includes(path[2])) {
    throw new HttpError(404, 'NOT_FOUND');
  }
  const organisationId = await organisationOf(request);
  const id = path[3];
  if (id !== undefined && !UUID.test(id)) throw new HttpError(404, 'NOT_FOUND');
  if (path[2] === 'positions') {
    if (request.method !== 'GET' || path.length !== 5 || path[4] !== 'candidates')
      throw new HttpError(404, 'NOT_FOUND');
    return {
      status: 200,
      payload: { success: true, ...(await listCandidates(organisationId, id.toLowerCase(), url.searchParams)) },
    };
  }
  if (request.method === 'POST' && path.length === 3) {
    const key = request.headers['idempotency-key'];
    return createEmployee(organisationId, await readJson(request), typeof key === 'string' ? key : undefined);
  }
  if (request.method === 'GET' && path.length === 3) {
    return { status: 200, payload: { success: true, ...(await listEmployees(organisationId, url.searchParams)) } };
  }
  if (request.method === 'GET' && path.length === 4) {
    return { status: 200, payload: { success: true, data: await getEmployee(organisationId, id.toLowerCase()) } };
  }
  if (request.method === 'PATCH' && path.length === 4) {
    const data = await updateEmployee(organisationId, id.toLowerCase(), await readJson(request));
    return { status: 200, payload: { success: true, data } };
  }
  if (request.method === 'POST' && path.length === 5 && path[4] === 'ratings') {
    const data = await rate(organisationId, id.toLowerCase(), await readJson(request));
    return { status: 201, payload: { success: true, data } };
  }
  throw new HttpError(404, 'NOT_FOUND');
}

function send(response: ServerResponse, status: number, payload: object): void {
  const body = JSON.stringify(payload);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  response.end(body);
}

/** Answers one request: node:http's request listener here, and the one route of bench/framework-floor.ts. */
export function respond(request: IncomingMessage, response: ServerResponse): void {
  route(request).then(
    ({ status, payload }) => send(response, status, payload),
    (error: unknown) => {
      const known = error instanceof HttpError;
      if (!known) console.error(error);
      send(response, known ? error.status : 500, {
        success: false,
        error: { message: known ? error.code : 'Internal error', code: known ? error.code : 'INTERNAL_ERROR' },
      });
    },
  );
}

/** Ends the pool: for a process that serves `respond` itself and then stops (the baseline's test). */
export function closePool(): Promise<void> {
  return pool.end();
}

if (require.main === module) {
  const port = Number(process.env.PORT ?? 3901);
  const server = createServer(respond).listen(port, '127.0.0.1', () => console.log(`baseline listening on ${port}`));
  process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
}
