import { DataSource, QueryRunner } from 'typeorm';
import { newId } from '../../src/database/uuid';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { Employee } from '../../src/employees/entities/employee.entity';
import { CandidateResponse } from '../../src/positions/dto/candidate.response';
import { ListCandidatesQuery } from '../../src/positions/dto/list-candidates.query';
import { PositionDetailResponse } from '../../src/positions/dto/position.response';
import { PositionsService } from '../../src/positions/positions.service';
import { SkillEmployeeResponse } from '../../src/ratings/dto/skill-employee.response';
import { PersonSkill } from '../../src/ratings/entities/person-skill.entity';
import { Skill } from '../../src/skills/entities/skill.entity';
import { apiClient } from '../support/api-client';
import { createTenant, dataSourceOf, TestTenant } from '../support/app';
import { countQueries } from '../support/count-queries';
import { itWithConcurrentSessions, NEEDS_A_SERVER } from '../support/database-kind';
import { createEmployee, rate } from '../support/people.factory';
import { PositionsFixtures } from '../support/positions-fixtures';
import { useTestApp } from '../support/use-test-app';
import { waitUntil } from '../support/wait-until';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('skills-based search', () => {
  const suite = useTestApp({ tenant: 'none' });
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = dataSourceOf(suite.app);
  });

  const client = (tenant: TestTenant) =>
    apiClient(
      () => suite.app,
      () => tenant,
    );
  const ids = (body: { data: Array<{ employee: { id: string } }> }) => body.data.map((row) => row.employee.id);

  /** The employee ids of every row of a list read by cursor, `limit` rows at a time. */
  async function idsByCursor(tenant: TestTenant, path: string, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const separator = path.includes('?') ? '&' : '?';
      const response = await client(tenant)
        .get<Array<{ employee: { id: string } }>>(`${path}${separator}limit=${limit}${query}`)
        .expect(200);
      const meta = response.body.meta as { nextCursor: string | null };
      // Cursor mode: no count, and a next page exactly when a cursor leads to it.
      if (cursor !== null)
        expect(meta).toEqual({ limit, hasNextPage: meta.nextCursor !== null, nextCursor: meta.nextCursor });
      seen.push(...ids(response.body));
      cursor = meta.nextCursor;
    } while (cursor !== null);
    return seen;
  }

  /** The nextCursor of the first page of `path` (one row a page). */
  async function firstCursor(tenant: TestTenant, path: string): Promise<string> {
    const response = await client(tenant)
      .get(`${path}${path.includes('?') ? '&' : '?'}limit=1`)
      .expect(200);
    return (response.body.meta as { nextCursor: string }).nextCursor;
  }

  /** Every employee of the tenant as GET /employees returns it, by id. */
  async function listedEmployees(tenant: TestTenant): Promise<Map<string, EmployeeResponse>> {
    const response = await client(tenant).get<EmployeeResponse[]>('/employees?limit=100').expect(200);
    return new Map(response.body.data.map((employee) => [employee.id, employee]));
  }

  /** Links the employee to the skill without any rating (as no endpoint does, but the data allows). */
  async function linkWithoutRating(tenant: TestTenant, employeeId: string, skillId: string): Promise<string> {
    const link = await dataSource.getRepository(PersonSkill).save({
      id: newId(),
      organisationId: tenant.organisationId,
      employeeId,
      skillId,
      createdAt: new Date(),
    });
    return link.id;
  }

  describe('GET /skills/{id}/employees', () => {
    let tenant: TestTenant;
    let fixtures: PositionsFixtures;
    let skill: Skill;
    let top: EmployeeResponse; // 5
    let left: EmployeeResponse; // 4, deactivated
    let tiedA: EmployeeResponse; // 3
    let tiedB: EmployeeResponse; // 3
    let unrated: EmployeeResponse; // linked, never rated
    let unratedLinkId: string;

    beforeAll(async () => {
      tenant = await createTenant(suite.app);
      fixtures = new PositionsFixtures(dataSource, tenant.organisationId);
      skill = await fixtures.skill('Welding');
      const other = await fixtures.skill('Painting');
      top = await createEmployee(suite.app, tenant, { firstName: 'Top' });
      left = await createEmployee(suite.app, tenant, { firstName: 'Left' });
      [tiedA, tiedB] = [await createEmployee(suite.app, tenant), await createEmployee(suite.app, tenant)].sort(byId);
      unrated = await createEmployee(suite.app, tenant, { firstName: 'Unrated' });
      const elsewhere = await createEmployee(suite.app, tenant, { firstName: 'Elsewhere' });

      await rate(suite.app, tenant, top.id, skill.id, { score: 1 });
      await rate(suite.app, tenant, top.id, skill.id, { score: 5, comment: 'Masterful', ratingType: 'LLM_RATING' });
      await rate(suite.app, tenant, left.id, skill.id, { score: 4 });
      // Inserted in the opposite order of their ids: ties still come by employee id.
      await rate(suite.app, tenant, tiedB.id, skill.id, { score: 3 });
      await rate(suite.app, tenant, tiedA.id, skill.id, { score: 3 });
      unratedLinkId = await linkWithoutRating(tenant, unrated.id, skill.id);
      await rate(suite.app, tenant, elsewhere.id, other.id, { score: 5 });
      await client(tenant).del(`/employees/${left.id}`).expect(200);
    });

    it('lists every linked employee, highest latest score first, ties by employee id, never rated last', async () => {
      const response = await client(tenant).get<SkillEmployeeResponse[]>(`/skills/${skill.id}/employees`).expect(200);
      expect(ids(response.body)).toEqual([top.id, left.id, tiedA.id, tiedB.id, unrated.id]);
      expect(response.body.meta).toEqual({
        total: 5,
        page: 1,
        limit: 20,
        totalPages: 1,
        hasNextPage: false,
        hasPrevPage: false,
        nextCursor: null,
      });
    });

    it('answers each employee exactly as GET /employees does, with the link and its latest rating', async () => {
      const response = await client(tenant).get<SkillEmployeeResponse[]>(`/skills/${skill.id}/employees`).expect(200);
      const listed = await listedEmployees(tenant);
      const [first] = response.body.data;
      expect(first).toEqual({
        employee: listed.get(top.id),
        personSkillId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        latestRating: {
          ratingId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          score: 5,
          ratingType: 'LLM_RATING',
          comment: 'Masterful',
          createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        },
      });
      const skills = (await client(tenant).get<{ personSkillId: string }[]>(`/employees/${top.id}/skills`)).body.data;
      expect(first.personSkillId).toBe(skills[0].personSkillId);
      for (const row of response.body.data) expect(row.employee).toEqual(listed.get(row.employee.id));
      expect(response.body.data[4]).toEqual({
        employee: listed.get(unrated.id),
        personSkillId: unratedLinkId,
        latestRating: null,
      });
    });

    it.each([
      ['minScore=3', () => [top.id, left.id, tiedA.id, tiedB.id]],
      ['minScore=4', () => [top.id, left.id]],
      ['minScore=6', () => []],
      ['minScore=-1', () => [top.id, left.id, tiedA.id, tiedB.id]],
      ['isActive=true', () => [top.id, tiedA.id, tiedB.id, unrated.id]],
      ['isActive=false', () => [left.id]],
      ['minScore=3&isActive=true', () => [top.id, tiedA.id, tiedB.id]],
    ])('filters with %s, and counts what it filters', async (query, expected) => {
      const response = await client(tenant)
        .get<SkillEmployeeResponse[]>(`/skills/${skill.id}/employees?${query}`)
        .expect(200);
      expect(ids(response.body)).toEqual(expected());
      expect(response.body.meta.total).toBe(expected().length);
    });

    it.each([1, 2, 3])('reads every row once by cursor, %i a page, ties by id, never rated last', async (limit) => {
      const path = `/skills/${skill.id}/employees`;
      expect(await idsByCursor(tenant, path, limit)).toEqual([top.id, left.id, tiedA.id, tiedB.id, unrated.id]);
      expect(await idsByCursor(tenant, `${path}?isActive=true`, limit)).toEqual([
        top.id,
        tiedA.id,
        tiedB.id,
        unrated.id,
      ]);
    });

    it('refuses a cursor on another skill, or with other filters (400)', async () => {
      const cursor = encodeURIComponent(await firstCursor(tenant, `/skills/${skill.id}/employees`));
      const another = await fixtures.skill('Plumbing');
      const elsewhere = await client(tenant).get(`/skills/${another.id}/employees?cursor=${cursor}`).expect(400);
      expect(elsewhere.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'cursor' }] });
      await client(tenant).get(`/skills/${skill.id}/employees?cursor=${cursor}&minScore=1`).expect(400);
      await client(tenant).get(`/skills/${skill.id}/employees?cursor=${cursor}`).expect(200);
    });

    it('pages in the same order', async () => {
      const page2 = await client(tenant)
        .get<SkillEmployeeResponse[]>(`/skills/${skill.id}/employees?page=2&limit=2`)
        .expect(200);
      expect(ids(page2.body)).toEqual([tiedA.id, tiedB.id]);
      expect(page2.body.meta).toEqual({
        total: 5,
        page: 2,
        limit: 2,
        totalPages: 3,
        hasNextPage: true,
        hasPrevPage: true,
        nextCursor: expect.any(String),
      });
      const past = await client(tenant).get(`/skills/${skill.id}/employees?page=9&limit=2`).expect(200);
      expect(past.body.data).toEqual([]);
    });

    it('answers an empty page for a skill nobody has', async () => {
      const lonely = await fixtures.skill('Juggling');
      const response = await client(tenant).get(`/skills/${lonely.id}/employees`).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: [],
        meta: { total: 0, page: 1, limit: 20, totalPages: 0, hasNextPage: false, hasPrevPage: false, nextCursor: null },
      });
    });

    it.each([
      ['unknown', () => UNKNOWN_ID],
      ['malformed', () => 'not-a-uuid'],
    ])('answers 404 NOT_FOUND for an %s skill id', async (_, id) => {
      const response = await client(tenant).get(`/skills/${id()}/employees`).expect(404);
      expect(response.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Skill not found' } });
    });

    it("answers 404 NOT_FOUND for another organisation's skill", async () => {
      const other = await createTenant(suite.app);
      await client(other).get(`/skills/${skill.id}/employees`).expect(404);
    });

    it.each([
      ['minScore=abc', 'minScore'],
      ['minScore=1.5', 'minScore'],
      ['minScore=', 'minScore'],
      ['minScore=99999999999', 'minScore'],
      ['isActive=yes', 'isActive'],
      ['limit=101', 'limit'],
    ])('rejects %s with 400 naming the field', async (query, field) => {
      const response = await client(tenant).get(`/skills/${skill.id}/employees?${query}`).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details).toEqual([expect.objectContaining({ field })]);
    });

    it('follows the newest rating: a new lower one moves the employee down', async () => {
      const own = await createTenant(suite.app);
      const ownFixtures = new PositionsFixtures(dataSource, own.organisationId);
      const cooking = await ownFixtures.skill('Cooking');
      const [first, second] = [await createEmployee(suite.app, own), await createEmployee(suite.app, own)].sort(byId);
      await rate(suite.app, own, first.id, cooking.id, { score: 5 });
      await rate(suite.app, own, second.id, cooking.id, { score: 3 });
      const before = await client(own).get<SkillEmployeeResponse[]>(`/skills/${cooking.id}/employees`).expect(200);
      expect(ids(before.body)).toEqual([first.id, second.id]);

      const lower = await rate(suite.app, own, first.id, cooking.id, { score: 1, comment: 'Slipped' });
      const after = await client(own).get<SkillEmployeeResponse[]>(`/skills/${cooking.id}/employees`).expect(200);
      expect(ids(after.body)).toEqual([second.id, first.id]);
      expect(after.body.data[1].latestRating).toEqual({
        ratingId: lower.ratingId,
        score: 1,
        ratingType: 'MANAGER_EVALUATION',
        comment: 'Slipped',
        createdAt: lower.createdAt,
      });
      const minScore = await client(own).get(`/skills/${cooking.id}/employees?minScore=2`).expect(200);
      expect(ids(minScore.body)).toEqual([second.id]);
    });

    it('keeps the newest rating when an older one is inserted after it', async () => {
      const own = await createTenant(suite.app);
      const ownFixtures = new PositionsFixtures(dataSource, own.organisationId);
      const cooking = await ownFixtures.skill('Cooking');
      const cook = await ownFixtures.employee();
      await ownFixtures.rating(cook, cooking, 4, new Date('2025-06-01T00:00:00.000Z'));
      await ownFixtures.rating(cook, cooking, 1, new Date('2025-01-01T00:00:00.000Z'));
      // Same instant: the larger id, the later insert, is the latest.
      await ownFixtures.rating(cook, cooking, 2, new Date('2025-06-01T00:00:00.000Z'));
      const response = await client(own).get<SkillEmployeeResponse[]>(`/skills/${cooking.id}/employees`).expect(200);
      expect(response.body.data.map((row) => row.latestRating?.score)).toEqual([2]);
      const detail = await client(own).get<{ skills: Array<{ latestRating: { score: number } }> }>(
        `/employees/${cook.id}`,
      );
      expect(detail.body.data.skills[0].latestRating.score).toBe(2);
    });
    itWithConcurrentSessions(
      `keeps the newest rating when an older one commits after it, concurrently ${NEEDS_A_SERVER}`,
      async () => {
        const own = await createTenant(suite.app);
        const ownFixtures = new PositionsFixtures(dataSource, own.organisationId);
        const cooking = await ownFixtures.skill('Cooking');
        const cook = await ownFixtures.employee();
        const first = await ownFixtures.rating(cook, cooking, 1, new Date('2025-01-01T00:00:00.000Z'));
        const insert = (runner: QueryRunner, score: number, createdAt: string) =>
          runner.query(
            `INSERT INTO ratings (id, organisation_id, person_skill_id, employee_id, skill_id, score, rating_type, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'MANAGER_EVALUATION', $7)`,
            [newId(), own.organisationId, first.personSkillId, cook.id, cooking.id, score, createdAt],
          );
        const newer = dataSource.createQueryRunner();
        const older = dataSource.createQueryRunner();
        try {
          await newer.startTransaction();
          await older.startTransaction();
          await insert(newer, 5, '2025-09-01T00:00:00.000Z');
          const [{ pid }] = (await older.query('SELECT pg_backend_pid() AS pid')) as Array<{ pid: number }>;
          // Waits on the link row the newer rating updated, then finds it newer than itself.
          const waiting = insert(older, 2, '2025-05-01T00:00:00.000Z');
          await waitUntil(async () => {
            const [{ blocked }] = await dataSource.query<Array<{ blocked: boolean }>>(
              'SELECT cardinality(pg_blocking_pids($1)) > 0 AS blocked',
              [pid],
            );
            return blocked;
          }, 'the older rating waits on the newer one');
          await newer.commitTransaction();
          await waiting;
          await older.commitTransaction();
        } finally {
          await newer.release();
          await older.release();
        }
        const response = await client(own).get<SkillEmployeeResponse[]>(`/skills/${cooking.id}/employees`).expect(200);
        expect(response.body.data.map((row) => [row.latestRating?.score, row.latestRating?.createdAt])).toEqual([
          [5, '2025-09-01T00:00:00.000Z'],
        ]);
      },
    );
  });

  describe('GET /positions/{id}/candidates', () => {
    let tenant: TestTenant;
    let fixtures: PositionsFixtures;
    let accounting: Skill; // minimum 3
    let budgeting: Skill; // minimum 2
    let compliance: Skill; // minimum 0: matched by everyone
    let people: Record<string, Employee>;
    let positionId: string;

    /** Employees with ids in the order of their names' letters, so expectations read as names. */
    const named = (...names: string[]) => names.map((name) => people[name].id);

    beforeAll(async () => {
      tenant = await createTenant(suite.app);
      fixtures = new PositionsFixtures(dataSource, tenant.organisationId);
      accounting = await fixtures.skill('Accounting');
      budgeting = await fixtures.skill('Budgeting');
      compliance = await fixtures.skill('Compliance');
      const unrelated = await fixtures.skill('Unrelated');
      people = {};
      for (const name of ['full', 'near', 'oneGood', 'twoWeak', 'none1', 'none2', 'zero', 'unrelated', 'gone']) {
        people[name] = await fixtures.employee({ firstName: name });
      }
      const { full, near, oneGood, twoWeak, zero, gone } = people;
      await fixtures.rating(full, accounting, 5);
      await fixtures.rating(full, budgeting, 2);
      await fixtures.rating(full, compliance, 4);
      await fixtures.rating(near, accounting, 3);
      await fixtures.rating(near, budgeting, 0);
      await fixtures.rating(oneGood, budgeting, 4);
      await fixtures.rating(twoWeak, accounting, 1);
      await fixtures.rating(twoWeak, budgeting, 1);
      // Rated, but with a score that closes no gap: the same totals as never rated.
      await fixtures.rating(zero, accounting, 0);
      await fixtures.rating(people.unrelated, unrelated, 5);
      await fixtures.rating(gone, accounting, 5);
      await fixtures.rating(gone, budgeting, 5);
      await dataSource.getRepository(Employee).update(gone.id, { leftAt: new Date() });

      const position = await fixtures.position({
        name: 'Controller',
        requiredSkills: [
          { skill: budgeting, minimumRating: 2 },
          { skill: accounting, minimumRating: 3 },
          { skill: compliance, minimumRating: 0 },
        ],
        replacements: [{ candidate: twoWeak, readyAt: new Date('2026-01-01T00:00:00.000Z'), status: 'PROPOSED' }],
      });
      positionId = position.id;
    });

    /** The tied "no useful rating" group (totalGap 5, matchedSkills 1), in employee id order. */
    const tiedAtTheEnd = () => named('none1', 'none2', 'zero', 'unrelated').sort();

    it('ranks every active employee: totalGap ascending, matchedSkills descending, then employee id', async () => {
      const response = await client(tenant).get<CandidateResponse[]>(`/positions/${positionId}/candidates`).expect(200);
      expect(ids(response.body)).toEqual([...named('full', 'near', 'oneGood', 'twoWeak'), ...tiedAtTheEnd()]);
      expect(response.body.data.map(({ totalGap, matchedSkills }) => [totalGap, matchedSkills])).toEqual([
        [0, 3],
        [2, 2],
        [3, 2],
        [3, 1],
        [5, 1],
        [5, 1],
        [5, 1],
        [5, 1],
      ]);
      expect(response.body.meta).toEqual({
        total: 8,
        page: 1,
        limit: 20,
        totalPages: 1,
        hasNextPage: false,
        hasPrevPage: false,
        nextCursor: null,
      });
    });

    it('answers the employee as GET /employees does, with the skills gap in required-skill order', async () => {
      const response = await client(tenant)
        .get<CandidateResponse[]>(`/positions/${positionId}/candidates?limit=2`)
        .expect(200);
      const listed = await listedEmployees(tenant);
      expect(response.body.data[1]).toEqual({
        employee: listed.get(people.near.id),
        totalGap: 2,
        matchedSkills: 2,
        skillsGap: [
          { skillId: accounting.id, skillName: 'Accounting', minimumRating: 3, currentScore: 3, gap: 0 },
          { skillId: budgeting.id, skillName: 'Budgeting', minimumRating: 2, currentScore: 0, gap: 2 },
          { skillId: compliance.id, skillName: 'Compliance', minimumRating: 0, currentScore: null, gap: 0 },
        ],
      });
    });

    it('gives a candidate the same skillsGap as the position detail gives the replacement', async () => {
      const detail = await client(tenant).get<PositionDetailResponse>(`/positions/${positionId}`).expect(200);
      const candidates = await client(tenant)
        .get<CandidateResponse[]>(`/positions/${positionId}/candidates`)
        .expect(200);
      const candidate = candidates.body.data.find((row) => row.employee.id === people.twoWeak.id)!;
      const [replacement] = detail.body.data.possibleReplacements;
      expect(replacement.candidate.id).toBe(people.twoWeak.id);
      expect(candidate.skillsGap).toEqual(replacement.skillsGap);
      expect(candidate.totalGap).toBe(3);
    });

    it('pages across rated and never-rated employees without repeating or skipping one', async () => {
      const all = ids(
        (await client(tenant).get<CandidateResponse[]>(`/positions/${positionId}/candidates`).expect(200)).body,
      );
      const paged: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const response = await client(tenant)
          .get<CandidateResponse[]>(`/positions/${positionId}/candidates?page=${page}&limit=3`)
          .expect(200);
        expect(response.body.meta).toMatchObject({ total: 8, page, totalPages: 3 });
        paged.push(...ids(response.body));
      }
      expect(paged).toEqual(all);
    });

    it.each([1, 3])('reads every candidate once by cursor, %i a page, in the ranking', async (limit) => {
      const all = ids(
        (await client(tenant).get<CandidateResponse[]>(`/positions/${positionId}/candidates`).expect(200)).body,
      );
      expect(await idsByCursor(tenant, `/positions/${positionId}/candidates`, limit)).toEqual(all);
    });

    it('refuses a cursor on another position, or with other filters (400)', async () => {
      const cursor = encodeURIComponent(await firstCursor(tenant, `/positions/${positionId}/candidates`));
      const another = await fixtures.position({ name: 'Auditor' });
      const elsewhere = await client(tenant).get(`/positions/${another.id}/candidates?cursor=${cursor}`).expect(400);
      expect(elsewhere.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'cursor' }] });
      await client(tenant).get(`/positions/${positionId}/candidates?cursor=${cursor}&isActive=false`).expect(400);
    });

    it('ranks only deactivated employees with isActive=false', async () => {
      const response = await client(tenant)
        .get<CandidateResponse[]>(`/positions/${positionId}/candidates?isActive=false`)
        .expect(200);
      expect(ids(response.body)).toEqual(named('gone'));
      expect(response.body.data[0]).toMatchObject({ totalGap: 0, matchedSkills: 3 });
      expect(response.body.meta.total).toBe(1);
    });

    it('ranks active employees behind more better-ranked deactivated ones than the page holds', async () => {
      const own = await createTenant(suite.app);
      const ownFixtures = new PositionsFixtures(dataSource, own.organisationId);
      const skill = await ownFixtures.skill('Auditing');
      const gone = [];
      for (let index = 0; index < 4; index++) gone.push(await ownFixtures.employee({ leftAt: new Date() }));
      const [strong, weak] = [await ownFixtures.employee(), await ownFixtures.employee()];
      const [neverRated] = [await ownFixtures.employee()];
      for (const employee of gone) await ownFixtures.rating(employee, skill, 5);
      await ownFixtures.rating(strong, skill, 4);
      await ownFixtures.rating(weak, skill, 2);
      const position = await ownFixtures.position({ requiredSkills: [{ skill, minimumRating: 5 }] });
      const path = `/positions/${position.id}/candidates`;
      const expected = [strong.id, weak.id, neverRated.id];
      expect(ids((await client(own).get<CandidateResponse[]>(`${path}?limit=1`).expect(200)).body)).toEqual([
        strong.id,
      ]);
      expect(await idsByCursor(own, path, 1)).toEqual(expected);
      const inactive = await client(own).get<CandidateResponse[]>(`${path}?isActive=false`).expect(200);
      expect(ids(inactive.body)).toEqual(gone.map((employee) => employee.id).sort());
    });

    it('follows the newest rating: a new lower one moves the candidate down', async () => {
      const own = await createTenant(suite.app);
      const ownFixtures = new PositionsFixtures(dataSource, own.organisationId);
      const skill = await ownFixtures.skill('Forecasting');
      const [first, second] = [await createEmployee(suite.app, own), await createEmployee(suite.app, own)].sort(byId);
      await rate(suite.app, own, first.id, skill.id, { score: 5 });
      await rate(suite.app, own, second.id, skill.id, { score: 4 });
      const position = await ownFixtures.position({ requiredSkills: [{ skill, minimumRating: 5 }] });
      const path = `/positions/${position.id}/candidates`;
      expect(ids((await client(own).get<CandidateResponse[]>(path).expect(200)).body)).toEqual([first.id, second.id]);
      await rate(suite.app, own, first.id, skill.id, { score: 2 });
      const after = await client(own).get<CandidateResponse[]>(path).expect(200);
      expect(ids(after.body)).toEqual([second.id, first.id]);
      expect(after.body.data[1]).toMatchObject({ totalGap: 3, matchedSkills: 0 });
    });

    it('ranks every employee at totalGap 0 by id for a position with no required skills', async () => {
      const bare = await fixtures.position({ name: 'Bare' });
      const response = await client(tenant).get<CandidateResponse[]>(`/positions/${bare.id}/candidates`).expect(200);
      const active = Object.values(people)
        .filter((person) => person !== people.gone)
        .map((person) => person.id)
        .sort();
      expect(ids(response.body)).toEqual(active);
      for (const row of response.body.data) expect(row).toMatchObject({ totalGap: 0, matchedSkills: 0, skillsGap: [] });
    });

    it('costs the same number of queries whatever the page holds (no N+1)', async () => {
      const service = suite.app.get(PositionsService);
      const query = Object.assign(new ListCandidatesQuery(), { limit: 100 });
      const small = await createTenant(suite.app);
      const smallFixtures = new PositionsFixtures(dataSource, small.organisationId);
      await smallFixtures.employee();
      const smallPosition = await smallFixtures.position({
        requiredSkills: [{ skill: await smallFixtures.skill('Solo'), minimumRating: 1 }],
      });
      const smallCount = await countQueries(dataSource, () =>
        service.candidates(small.organisationId, smallPosition.id, query),
      );
      const largeCount = await countQueries(dataSource, async () => {
        const page = await service.candidates(tenant.organisationId, positionId, query);
        expect(page.items).toHaveLength(8);
      });
      // The position, its required skills, the ranked page with its latest scores, the employee count.
      expect({ smallCount, largeCount }).toEqual({ smallCount: 4, largeCount: 4 });
    });

    it('answers an empty page for an organisation without employees', async () => {
      const own = await createTenant(suite.app);
      const position = await new PositionsFixtures(dataSource, own.organisationId).position();
      const response = await client(own).get(`/positions/${position.id}/candidates`).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: [],
        meta: { total: 0, page: 1, limit: 20, totalPages: 0, hasNextPage: false, hasPrevPage: false, nextCursor: null },
      });
    });

    it.each([
      ['unknown', () => UNKNOWN_ID],
      ['malformed', () => 'not-a-uuid'],
    ])('answers 404 NOT_FOUND for an %s position id', async (_, id) => {
      const response = await client(tenant).get(`/positions/${id()}/candidates`).expect(404);
      expect(response.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Position not found' } });
    });

    it("answers 404 NOT_FOUND for another organisation's position", async () => {
      const other = await createTenant(suite.app);
      await client(other).get(`/positions/${positionId}/candidates`).expect(404);
    });

    it.each([
      ['isActive=maybe', 'isActive'],
      ['isActive=', 'isActive'],
      ['page=0', 'page'],
    ])('rejects %s with 400 naming the field', async (query, field) => {
      const response = await client(tenant).get(`/positions/${positionId}/candidates?${query}`).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details).toEqual([expect.objectContaining({ field })]);
    });
  });
});
