import { DataSource } from 'typeorm';
import { newId } from '../../src/database/uuid';
import { Employee } from '../../src/employees/entities/employee.entity';
import { ListPositionsQuery } from '../../src/positions/dto/list-positions.query';
import { PositionDetailResponse, PositionResponse } from '../../src/positions/dto/position.response';
import { Position } from '../../src/positions/entities/position.entity';
import { PositionsService } from '../../src/positions/positions.service';
import { Skill } from '../../src/skills/entities/skill.entity';
import { apiClient } from '../support/api-client';
import { createTenant, dataSourceOf, TestTenant } from '../support/app';
import { countQueries } from '../support/count-queries';
import { PositionsFixtures } from '../support/positions-fixtures';
import { useTestApp } from '../support/use-test-app';

describe('positions API', () => {
  const suite = useTestApp({ tenant: 'none' });
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = dataSourceOf(suite.app);
  });

  /** GET as the tenant; typed by the `data` it answers. */
  const get = <T>(tenant: TestTenant, path: string) =>
    apiClient(
      () => suite.app,
      () => tenant,
    ).get<T>(path);
  const withoutKey = apiClient(() => suite.app);

  describe('GET /positions', () => {
    let tenant: TestTenant;
    let fixtures: PositionsFixtures;
    let replaced: Employee;
    let accounting: Skill;
    let budgeting: Skill;
    let first: Position;
    let second: Position;
    let third: Position;
    let fourth: Position;

    beforeAll(async () => {
      tenant = await createTenant(suite.app);
      fixtures = new PositionsFixtures(dataSource, tenant.organisationId);
      replaced = await fixtures.employee({ firstName: 'Grace', lastName: 'Hopper' });
      accounting = await fixtures.skill('accounting');
      budgeting = await fixtures.skill('Budgeting');
      const sameInstant = new Date('2025-02-01T08:00:00.000Z');
      // Inserted out of order: the list must still come oldest first, then by id.
      fourth = await fixtures.position({ name: 'Fourth', createdAt: new Date('2025-03-01T08:00:00.000Z') });
      first = await fixtures.position({
        name: 'First',
        description: 'Keeps the books',
        department: 'Finance',
        status: 'IN_PROGRESS',
        mustBeFilledBy: new Date('2026-01-31T00:00:00.000Z'),
        replacesEmployeeId: replaced.id,
        createdAt: new Date('2025-01-01T08:00:00.000Z'),
        requiredSkills: [
          { skill: budgeting, minimumRating: 2 },
          { skill: accounting, minimumRating: 4 },
        ],
      });
      const tied = [
        await fixtures.position({ name: 'Tied A', status: 'FILLED', createdAt: sameInstant }),
        await fixtures.position({ name: 'Tied B', status: 'CLOSED', createdAt: sameInstant }),
      ].sort((a, b) => a.id.localeCompare(b.id));
      [second, third] = tied;

      const other = await createTenant(suite.app);
      await new PositionsFixtures(dataSource, other.organisationId).position({ name: 'Foreign' });
    });

    it('returns Position objects exactly as the spec lists them, oldest first', async () => {
      const response = await get<PositionResponse[]>(tenant, '/positions').expect(200);
      expect(response.body).toEqual({
        success: true,
        data: [
          {
            id: first.id,
            name: 'First',
            description: 'Keeps the books',
            department: 'Finance',
            status: 'IN_PROGRESS',
            mustBeFilledBy: '2026-01-31T00:00:00.000Z',
            replacesPerson: { id: replaced.id, firstName: 'Grace', lastName: 'Hopper' },
            requiredSkills: [
              { skillId: accounting.id, skillName: 'accounting', minimumRating: 4 },
              { skillId: budgeting.id, skillName: 'Budgeting', minimumRating: 2 },
            ],
          },
          expect.objectContaining({ id: second.id }),
          expect.objectContaining({ id: third.id }),
          {
            id: fourth.id,
            name: 'Fourth',
            description: null,
            department: null,
            status: 'OPEN',
            mustBeFilledBy: null,
            replacesPerson: null,
            requiredSkills: [],
          },
        ],
        meta: { total: 4, page: 1, limit: 20, totalPages: 1, hasNextPage: false, hasPrevPage: false, nextCursor: null },
      });
    });

    it('pages through the list with correct meta', async () => {
      const page2 = await get<PositionResponse[]>(tenant, '/positions?page=2&limit=2').expect(200);
      expect(page2.body.data.map((position) => position.id)).toEqual([third.id, fourth.id]);
      expect(page2.body.meta).toEqual({
        total: 4,
        page: 2,
        limit: 2,
        totalPages: 2,
        hasNextPage: false,
        hasPrevPage: true,
        nextCursor: null,
      });

      const past = await get<PositionResponse[]>(tenant, '/positions?page=3&limit=2').expect(200);
      expect(past.body).toEqual({
        success: true,
        data: [],
        meta: { total: 4, page: 3, limit: 2, totalPages: 2, hasNextPage: false, hasPrevPage: true, nextCursor: null },
      });
    });

    it.each([
      ['OPEN', () => [fourth.id]],
      ['IN_PROGRESS', () => [first.id]],
      ['FILLED', () => [second.id]],
      ['CLOSED', () => [third.id]],
    ])('filters by status=%s', async (status, expected) => {
      const response = await get<PositionResponse[]>(tenant, `/positions?status=${status}`).expect(200);
      expect(response.body.data.map((position) => position.id)).toEqual(expected());
      expect(response.body.meta.total).toBe(1);
    });

    it.each(['open', 'ARCHIVED', ''])('rejects status=%p with 400 VALIDATION_ERROR', async (status) => {
      const response = await get(tenant, `/positions?status=${status}`).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details).toEqual([expect.objectContaining({ field: 'status' })]);
    });

    it.each(['page=0', 'limit=101', 'limit=abc'])('rejects %s with 400', async (query) => {
      const response = await get(tenant, `/positions?${query}`).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('lists only the positions of the key’s organisation', async () => {
      const response = await get<PositionResponse[]>(tenant, '/positions?limit=100').expect(200);
      expect(response.body.data.map((position) => position.name)).not.toContain('Foreign');
    });

    it('needs an API key', async () => {
      await withoutKey.get('/positions').expect(401);
    });

    it('costs the same number of queries whatever the page holds', async () => {
      const small = await createTenant(suite.app);
      const smallFixtures = new PositionsFixtures(dataSource, small.organisationId);
      await smallFixtures.position();
      const large = await createTenant(suite.app);
      const largeFixtures = new PositionsFixtures(dataSource, large.organisationId);
      const skills = await Promise.all(['a', 'b', 'c'].map((name) => largeFixtures.skill(name)));
      const person = await largeFixtures.employee();
      for (let i = 0; i < 6; i++) {
        await largeFixtures.position({
          replacesEmployeeId: person.id,
          requiredSkills: skills.map((skill) => ({ skill, minimumRating: 3 })),
        });
      }
      const service = suite.app.get(PositionsService);
      const query = new ListPositionsQuery();
      const smallCount = await countQueries(dataSource, () => service.list(small.organisationId, query));
      const largeCount = await countQueries(dataSource, async () => {
        const page = await service.list(large.organisationId, query);
        expect(page.items).toHaveLength(6);
      });
      expect(largeCount).toBe(smallCount);
      expect(largeCount).toBe(3); // page, count, required skills of the page
    });
  });

  describe('GET /positions/:id', () => {
    let tenant: TestTenant;
    let fixtures: PositionsFixtures;

    beforeAll(async () => {
      tenant = await createTenant(suite.app);
      fixtures = new PositionsFixtures(dataSource, tenant.organisationId);
    });

    it('returns PositionDetail with each candidate’s skills gap from their latest ratings', async () => {
      const accounting = await fixtures.skill('Accounting');
      const budgeting = await fixtures.skill('Budgeting');
      const coaching = await fixtures.skill('Coaching');
      const early = await fixtures.employee({ firstName: 'Early', lastName: 'Bird' });
      const late = await fixtures.employee({ firstName: 'Late', lastName: 'Comer' });
      const replaced = await fixtures.employee({ firstName: 'Old', lastName: 'Timer' });

      // Latest is the newest createdAt, whatever the score or insertion order.
      await fixtures.rating(early, accounting, 1, new Date('2025-05-01T00:00:00.000Z'));
      await fixtures.rating(early, accounting, 5, new Date('2025-01-01T00:00:00.000Z'));
      // Same createdAt: the larger id (inserted later) wins.
      const tie = new Date('2025-06-01T00:00:00.000Z');
      await fixtures.rating(early, budgeting, 1, tie);
      await fixtures.rating(early, budgeting, 3, tie);
      // A rating on a skill the position does not require is not part of the gap.
      await fixtures.rating(late, await fixtures.skill('Unrelated'), 5);
      await fixtures.rating(late, coaching, 4);

      const position = await fixtures.position({
        name: 'Head of Finance',
        description: 'Runs finance',
        department: 'Finance',
        status: 'OPEN',
        mustBeFilledBy: new Date('2026-03-01T12:30:00.000Z'),
        replacesEmployeeId: replaced.id,
        requiredSkills: [
          { skill: coaching, minimumRating: 3 },
          { skill: accounting, minimumRating: 4 },
          { skill: budgeting, minimumRating: 2 },
        ],
        replacements: [
          { candidate: late, readyAt: new Date('2026-06-01T00:00:00.000Z'), status: 'APPROVED' },
          { candidate: early, readyAt: new Date('2026-01-15T00:00:00.000Z'), status: 'PROPOSED' },
        ],
      });
      const replacementIds = await dataSource.query(
        `SELECT id, candidate_employee_id AS "candidateId" FROM position_replacements WHERE position_id = $1`,
        [position.id],
      );
      const replacementOf = (candidate: Employee) =>
        replacementIds.find((row: { candidateId: string }) => row.candidateId === candidate.id).id;

      const response = await get<PositionDetailResponse>(tenant, `/positions/${position.id}`).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          id: position.id,
          name: 'Head of Finance',
          description: 'Runs finance',
          department: 'Finance',
          status: 'OPEN',
          mustBeFilledBy: '2026-03-01T12:30:00.000Z',
          replacesPerson: { id: replaced.id, firstName: 'Old', lastName: 'Timer' },
          requiredSkills: [
            { skillId: accounting.id, skillName: 'Accounting', minimumRating: 4 },
            { skillId: budgeting.id, skillName: 'Budgeting', minimumRating: 2 },
            { skillId: coaching.id, skillName: 'Coaching', minimumRating: 3 },
          ],
          possibleReplacements: [
            {
              replacementId: replacementOf(early),
              candidate: { id: early.id, firstName: 'Early', lastName: 'Bird' },
              readyAt: '2026-01-15T00:00:00.000Z',
              status: 'PROPOSED',
              skillsGap: [
                { skillId: accounting.id, skillName: 'Accounting', minimumRating: 4, currentScore: 1, gap: 3 },
                { skillId: budgeting.id, skillName: 'Budgeting', minimumRating: 2, currentScore: 3, gap: 0 },
                { skillId: coaching.id, skillName: 'Coaching', minimumRating: 3, currentScore: null, gap: 3 },
              ],
            },
            {
              replacementId: replacementOf(late),
              candidate: { id: late.id, firstName: 'Late', lastName: 'Comer' },
              readyAt: '2026-06-01T00:00:00.000Z',
              status: 'APPROVED',
              skillsGap: [
                { skillId: accounting.id, skillName: 'Accounting', minimumRating: 4, currentScore: null, gap: 4 },
                { skillId: budgeting.id, skillName: 'Budgeting', minimumRating: 2, currentScore: null, gap: 2 },
                { skillId: coaching.id, skillName: 'Coaching', minimumRating: 3, currentScore: 4, gap: 0 },
              ],
            },
          ],
        },
      });
    });

    it('returns empty lists and nulls for a bare position', async () => {
      const position = await fixtures.position({ name: 'Bare', status: 'CLOSED' });
      const response = await get<PositionDetailResponse>(tenant, `/positions/${position.id}`).expect(200);
      expect(response.body.data).toEqual({
        id: position.id,
        name: 'Bare',
        description: null,
        department: null,
        status: 'CLOSED',
        mustBeFilledBy: null,
        replacesPerson: null,
        requiredSkills: [],
        possibleReplacements: [],
      });
    });

    it('costs the same number of queries whatever the number of candidates and skills', async () => {
      const skill = await fixtures.skill(`Solo ${newId()}`);
      const candidate = await fixtures.employee();
      await fixtures.rating(candidate, skill, 2);
      const small = await fixtures.position({
        requiredSkills: [{ skill, minimumRating: 3 }],
        replacements: [{ candidate, readyAt: new Date(), status: 'PROPOSED' }],
      });

      const skills = await Promise.all([1, 2, 3, 4, 5].map((n) => fixtures.skill(`Many ${n} ${newId()}`)));
      const candidates = await Promise.all([1, 2, 3, 4, 5, 6].map(() => fixtures.employee()));
      for (const each of candidates) for (const s of skills) await fixtures.rating(each, s, 3);
      const large = await fixtures.position({
        requiredSkills: skills.map((s) => ({ skill: s, minimumRating: 4 })),
        replacements: candidates.map((each) => ({ candidate: each, readyAt: new Date(), status: 'PROPOSED' as const })),
      });

      const service = suite.app.get(PositionsService);
      const smallCount = await countQueries(dataSource, () => service.get(tenant.organisationId, small.id));
      const largeCount = await countQueries(dataSource, async () => {
        const detail = await service.get(tenant.organisationId, large.id);
        expect(detail.possibleReplacements).toHaveLength(6);
        expect(detail.possibleReplacements.flatMap((each) => each.skillsGap)).toHaveLength(30);
        expect(detail.possibleReplacements[0].skillsGap[0]).toMatchObject({ currentScore: 3, gap: 1 });
      });
      expect(largeCount).toBe(smallCount);
      expect(largeCount).toBe(4); // position, required skills, replacements, latest scores
    });

    it('drops a skill deleted from the catalogue from the positions that required it', async () => {
      const kept = await fixtures.skill(`Kept ${newId()}`);
      const removed = await fixtures.skill(`Removed ${newId()}`);
      const position = await fixtures.position({
        requiredSkills: [
          { skill: kept, minimumRating: 1 },
          { skill: removed, minimumRating: 1 },
        ],
      });
      await dataSource.getRepository(Skill).delete({ id: removed.id });
      const response = await get<PositionDetailResponse>(tenant, `/positions/${position.id}`).expect(200);
      expect(response.body.data.requiredSkills).toEqual([{ skillId: kept.id, skillName: kept.name, minimumRating: 1 }]);
    });

    it('orders required skills case-insensitively by code point, letters beyond ASCII after z', async () => {
      const suffix = newId();
      const [eclair, zeta, alpha] = [
        await fixtures.skill(`Éclair ${suffix}`),
        await fixtures.skill(`zeta ${suffix}`),
        await fixtures.skill(`Alpha ${suffix}`),
      ];
      const position = await fixtures.position({
        requiredSkills: [eclair, zeta, alpha].map((skill) => ({ skill, minimumRating: 1 })),
      });
      const response = await get<PositionDetailResponse>(tenant, `/positions/${position.id}`).expect(200);
      expect(response.body.data.requiredSkills.map((skill) => skill.skillId)).toEqual([alpha.id, zeta.id, eclair.id]);
    });

    it('answers 404 NOT_FOUND for an unknown id', async () => {
      const response = await get(tenant, `/positions/${newId()}`).expect(404);
      expect(response.body).toEqual({ success: false, error: { message: 'Position not found', code: 'NOT_FOUND' } });
    });

    it('answers 404 NOT_FOUND for a position of another organisation', async () => {
      const other = await createTenant(suite.app);
      const foreign = await new PositionsFixtures(dataSource, other.organisationId).position();
      const response = await get(tenant, `/positions/${foreign.id}`).expect(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
      await get(other, `/positions/${foreign.id}`).expect(200);
    });

    it.each(['not-a-uuid', '123', `${newId()}x`])('answers 404 NOT_FOUND for the malformed id %p', async (id) => {
      const response = await get(tenant, `/positions/${id}`).expect(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    });

    it('accepts an upper-case id', async () => {
      const position = await fixtures.position();
      await get(tenant, `/positions/${position.id.toUpperCase()}`).expect(200);
    });
  });

  describe('OpenAPI', () => {
    it('documents both endpoints, their query parameters and responses', async () => {
      const document = (await withoutKey.get('/openapi.json').expect(200)).body;
      const list = document.paths['/positions'].get;
      const parameters = Object.fromEntries(list.parameters.map((p: { name: string }) => [p.name, p]));
      expect(Object.keys(parameters).sort()).toEqual(['cursor', 'limit', 'page', 'status']);
      expect(parameters.status).toMatchObject({ in: 'query', required: false });
      expect(parameters.status.schema.enum).toEqual(['OPEN', 'IN_PROGRESS', 'FILLED', 'CLOSED']);
      expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429']));
      expect(list.responses['200'].content['application/json'].schema.properties.data.items.$ref).toBe(
        '#/components/schemas/Position',
      );

      const detail = document.paths['/positions/{id}'].get;
      expect(detail.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
      expect(Object.keys(detail.responses)).toEqual(expect.arrayContaining(['200', '404', '401']));

      const schemas = document.components.schemas;
      expect(Object.keys(schemas.Position.properties).sort()).toEqual([
        'department',
        'description',
        'id',
        'mustBeFilledBy',
        'name',
        'replacesPerson',
        'requiredSkills',
        'status',
      ]);
      expect(schemas.Position.required.sort()).toEqual(Object.keys(schemas.Position.properties).sort());
      expect(schemas.Position.properties.description.nullable).toBe(true);
      expect(schemas.Position.properties.mustBeFilledBy).toMatchObject({ nullable: true, format: 'date-time' });
      expect(Object.keys(schemas.PositionDetail.properties)).toContain('possibleReplacements');
      expect(Object.keys(schemas.PossibleReplacement.properties).sort()).toEqual([
        'candidate',
        'readyAt',
        'replacementId',
        'skillsGap',
        'status',
      ]);
      expect(schemas.SkillGap.properties.currentScore.nullable).toBe(true);
      for (const field of ['minimumRating', 'currentScore', 'gap'])
        expect(schemas.SkillGap.properties[field].type).toBe('integer');
      expect(schemas.RequiredSkill.properties.minimumRating.type).toBe('integer');
    });
  });
});
