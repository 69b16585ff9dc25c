import {
  DeactivatedEmployeeResponse,
  EmployeeDetailResponse,
  EmployeeResponse,
} from '../../src/employees/dto/employee.response';
import { WebhookResponse } from '../../src/webhooks/dto/webhook.response';
import { createTenant, dataSourceOf } from '../support/app';
import { EventRecorder } from '../support/event-recorder';
import { createEmployee, createSkill, rate, unique } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

describe('employees', () => {
  const suite = useTestApp();
  let events: EventRecorder;
  beforeAll(async () => {
    events = EventRecorder.attach(suite.app);
  });
  afterAll(async () => {
    events.detach();
  });

  const { get, post, patch, del } = suite.api;

  describe('POST /employees', () => {
    it('creates an employee with every field, returns it with 201 and emits employee.created with it', async () => {
      const response = await post<EmployeeResponse>('/employees', {
        personnelNumber: 'P-001',
        firstName: 'Grace',
        lastName: 'Hopper',
        businessEmail: 'Grace.Hopper@Example.com',
        title: 'Rear Admiral',
        gender: 'female',
        departmentId: 'NAVY-1',
        hiredAt: '2026-01-31T09:00:00+02:00',
        isHRTeamMember: true,
      }).expect(201);
      expect(response.body).toEqual({
        success: true,
        data: {
          id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
          personnelNumber: 'P-001',
          firstName: 'Grace',
          lastName: 'Hopper',
          businessEmail: 'Grace.Hopper@Example.com',
          title: 'Rear Admiral',
          gender: 'female',
          departmentId: 'NAVY-1',
          hiredAt: '2026-01-31T07:00:00.000Z',
          leftAt: null,
          isHRTeamMember: true,
          createdAt: expect.stringMatching(ISO_MS),
          updatedAt: response.body.data.createdAt,
          version: 1,
        },
      });
      expect(events.of(suite.tenant.organisationId)).toEqual([
        {
          name: 'employee.created',
          data: response.body.data,
          occurredAt: expect.stringMatching(ISO_MS),
          inTransaction: true,
        },
      ]);
    });

    it('defaults title, gender, hiredAt and departmentId to null and isHRTeamMember to false', async () => {
      const response = await post<EmployeeResponse>('/employees', {
        personnelNumber: 'P-2',
        firstName: 'A',
        lastName: 'B',
        businessEmail: 'a@example.com',
      }).expect(201);
      expect(response.body.data).toMatchObject({
        title: null,
        gender: null,
        hiredAt: null,
        departmentId: null,
        leftAt: null,
        isHRTeamMember: false,
      });
    });

    it.each([
      ['2026-01-31', '2026-01-31T00:00:00.000Z'],
      ['2026-01-31T09:00:00Z', '2026-01-31T09:00:00.000Z'],
      ['2026-01-31T09:00:00.5-05:00', '2026-01-31T14:00:00.500Z'],
    ])('accepts hiredAt %s and returns it as %s', async (hiredAt, expected) => {
      const employee = await createEmployee(suite.app, suite.tenant, { hiredAt });
      expect(employee.hiredAt).toBe(expected);
    });

    it.each([
      ['personnelNumber missing', { personnelNumber: undefined }, 'personnelNumber'],
      ['firstName empty', { firstName: '' }, 'firstName'],
      ['lastName not a string', { lastName: 7 }, 'lastName'],
      ['businessEmail not an email', { businessEmail: 'not-an-email' }, 'businessEmail'],
      ['personnelNumber over 64', { personnelNumber: 'x'.repeat(65) }, 'personnelNumber'],
      ['firstName over 200', { firstName: 'x'.repeat(201) }, 'firstName'],
      ['lastName over 200', { lastName: 'x'.repeat(201) }, 'lastName'],
      ['title over 200', { title: 'x'.repeat(201) }, 'title'],
      ['businessEmail over 254', { businessEmail: `${'x'.repeat(243)}@example.com` }, 'businessEmail'],
      ['gender over 50', { gender: 'x'.repeat(51) }, 'gender'],
      ['departmentId over 64', { departmentId: 'x'.repeat(65) }, 'departmentId'],
      ['hiredAt not a date', { hiredAt: 'yesterday' }, 'hiredAt'],
      ['hiredAt an impossible date', { hiredAt: '2026-02-30' }, 'hiredAt'],
      ['isHRTeamMember a string', { isHRTeamMember: 'true' }, 'isHRTeamMember'],
      ['isHRTeamMember null', { isHRTeamMember: null }, 'isHRTeamMember'],
      ['leftAt, which POST does not take', { leftAt: '2026-01-31' }, 'leftAt'],
      ['an unknown field', { nickname: 'x' }, 'nickname'],
    ])('rejects %s with 400 and emits nothing', async (_case, fields, field) => {
      const body = { personnelNumber: 'P-1', firstName: 'A', lastName: 'B', businessEmail: 'a@example.com', ...fields };
      const response = await post('/employees', body).expect(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
      expect(events.of(suite.tenant.organisationId)).toEqual([]);
    });

    it('accepts the maximum lengths', async () => {
      const local = 'x'.repeat(64);
      const employee = await createEmployee(suite.app, suite.tenant, {
        personnelNumber: 'p'.repeat(64),
        firstName: 'f'.repeat(200),
        lastName: 'l'.repeat(200),
        title: 't'.repeat(200),
        gender: 'g'.repeat(50),
        departmentId: 'd'.repeat(64),
        businessEmail: `${local}@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(57)}.com`,
      });
      expect(employee.businessEmail).toHaveLength(254);
    });

    it('refuses a duplicate personnelNumber in the organisation with 409, and emits nothing', async () => {
      await createEmployee(suite.app, suite.tenant, { personnelNumber: 'DUP-1' });
      events.clear(suite.tenant.organisationId);
      const response = await post<EmployeeResponse>('/employees', {
        personnelNumber: 'DUP-1',
        firstName: 'A',
        lastName: 'B',
        businessEmail: 'other@example.com',
      }).expect(409);
      expect(response.body).toEqual({
        success: false,
        error: { code: 'CONFLICT', message: expect.stringContaining('personnelNumber') },
      });
      expect(events.of(suite.tenant.organisationId)).toEqual([]);
    });

    it('refuses a businessEmail that differs only in case with 409', async () => {
      await createEmployee(suite.app, suite.tenant, { businessEmail: 'Same.Person@Example.com' });
      const response = await post<EmployeeResponse>('/employees', {
        personnelNumber: unique('p'),
        firstName: 'A',
        lastName: 'B',
        businessEmail: 'same.person@example.COM',
      }).expect(409);
      expect(response.body.error.message).toContain('businessEmail');
    });

    it('answers 500 and writes neither the employee nor a delivery when the outbox insert fails', async () => {
      const webhook = await post<WebhookResponse>('/webhooks', {
        url: 'https://127.0.0.1:9/outbox',
        events: ['employee.created'],
      });
      expect(webhook.status).toBe(201);
      const database = dataSourceOf(suite.app);
      const written = async () => {
        const [row] = await database.query(
          `SELECT (SELECT count(*)::int FROM employees WHERE organisation_id = $1) AS employees,
                  (SELECT count(*)::int FROM webhook_deliveries WHERE organisation_id = $1) AS deliveries`,
          [suite.tenant.organisationId],
        );
        return row;
      };
      // The delivery insert itself fails, for this organisation only: other test files share the table.
      const trigger = `outbox_fails_${suite.tenant.organisationId.replace(/-/g, '')}`;
      await database.query(
        `CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF NEW.organisation_id = TG_ARGV[0]::uuid THEN RAISE EXCEPTION 'outbox unavailable'; END IF;
           RETURN NEW;
         END $$`,
      );
      await database.query(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON webhook_deliveries
         FOR EACH ROW EXECUTE FUNCTION ${trigger}('${suite.tenant.organisationId}')`,
      );
      const body = { personnelNumber: 'OUTBOX-1', firstName: 'A', lastName: 'B', businessEmail: 'outbox@example.com' };
      try {
        const response = await post('/employees', body).expect(500);
        expect(response.body).toEqual({
          success: false,
          error: { code: 'INTERNAL_ERROR', message: 'Internal server error' },
        });
        expect(await written()).toEqual({ employees: 0, deliveries: 0 });
      } finally {
        await database.query(`DROP TRIGGER ${trigger} ON webhook_deliveries`);
        await database.query(`DROP FUNCTION ${trigger}()`);
      }
      // The same call without the trigger writes both: the 500 was the outbox insert's.
      await post('/employees', body).expect(201);
      expect(await written()).toEqual({ employees: 1, deliveries: 1 });
      await del(`/webhooks/${webhook.body.data.id}`).expect(200);
    });

    it('allows the same personnelNumber and businessEmail in another organisation', async () => {
      const other = await createTenant(suite.app);
      await createEmployee(suite.app, suite.tenant, { personnelNumber: 'SHARED', businessEmail: 'shared@example.com' });
      await createEmployee(suite.app, other, { personnelNumber: 'SHARED', businessEmail: 'shared@example.com' });
    });
  });

  describe('GET /employees', () => {
    it('lists oldest first with exact meta, and a page past the end is empty', async () => {
      const created = [];
      for (let i = 0; i < 5; i++) created.push(await createEmployee(suite.app, suite.tenant));
      const first = await get<EmployeeResponse[]>('/employees?limit=2').expect(200);
      expect(first.body.data).toEqual([created[0], created[1]]);
      expect(first.body.meta).toEqual({
        total: 5,
        page: 1,
        limit: 2,
        totalPages: 3,
        hasNextPage: true,
        hasPrevPage: false,
        nextCursor: expect.any(String),
      });
      const last = await get<EmployeeResponse[]>('/employees?limit=2&page=3').expect(200);
      expect(last.body.data).toEqual([created[4]]);
      const past = await get<EmployeeResponse[]>('/employees?limit=2&page=4').expect(200);
      expect(past.body.data).toEqual([]);
      expect(past.body.meta).toMatchObject({ total: 5, page: 4, hasNextPage: false, hasPrevPage: true });
    });

    it('uses defaults page 1 and limit 20 and rejects a bad limit', async () => {
      const response = await get<EmployeeResponse[]>('/employees').expect(200);
      expect(response.body.meta).toMatchObject({ page: 1, limit: 20, total: 0, totalPages: 0 });
      await get('/employees?limit=101').expect(400);
    });

    it('filters by isActive', async () => {
      const active = await createEmployee(suite.app, suite.tenant);
      const leaving = await createEmployee(suite.app, suite.tenant);
      await del(`/employees/${leaving.id}`).expect(200);
      const activeOnes = await get<EmployeeResponse[]>('/employees?isActive=true').expect(200);
      expect(activeOnes.body.data.map((e) => e.id)).toEqual([active.id]);
      const inactiveOnes = await get<EmployeeResponse[]>('/employees?isActive=false').expect(200);
      expect(inactiveOnes.body.data.map((e) => e.id)).toEqual([leaving.id]);
      expect(inactiveOnes.body.meta.total).toBe(1);
    });

    describe('exact totals kept per organisation (organisation_employee_counts)', () => {
      /** meta.total of the unfiltered, isActive=true and isActive=false lists. */
      const totals = async () => {
        const lists = ['', '?isActive=true', '?isActive=false'].map((filter) =>
          get<EmployeeResponse[]>(`/employees${filter}`).expect(200),
        );
        return (await Promise.all(lists)).map((response) => response.body.meta.total);
      };
      const counted = async () => {
        const [row] = await dataSourceOf(suite.app).query(
          `SELECT count(*)::int AS total, (count(*) FILTER (WHERE left_at IS NULL))::int AS active
             FROM employees WHERE organisation_id = $1`,
          [suite.tenant.organisationId],
        );
        return [row.total, row.active, row.total - row.active];
      };

      it('stay exact across create, a refused duplicate, deactivate, PATCH leftAt and reactivate', async () => {
        expect(await totals()).toEqual([0, 0, 0]);
        const ada = await createEmployee(suite.app, suite.tenant);
        const alan = await createEmployee(suite.app, suite.tenant);
        expect(await totals()).toEqual([2, 2, 0]);
        const duplicate = {
          personnelNumber: ada.personnelNumber,
          firstName: 'A',
          lastName: 'B',
          businessEmail: `x.${ada.businessEmail}`,
        };
        await post('/employees', duplicate).expect(409);
        expect(await totals()).toEqual([2, 2, 0]);
        await del(`/employees/${ada.id}`).expect(200);
        await del(`/employees/${ada.id}`).expect(200);
        expect(await totals()).toEqual([2, 1, 1]);
        await patch(`/employees/${alan.id}`, { leftAt: '2026-01-01T00:00:00.000Z' }).expect(200);
        await patch(`/employees/${alan.id}`, { leftAt: '2026-02-01T00:00:00.000Z' }).expect(200);
        expect(await totals()).toEqual([2, 0, 2]);
        await patch(`/employees/${ada.id}`, { leftAt: null }).expect(200);
        await patch(`/employees/${ada.id}`, { firstName: 'Augusta' }).expect(200);
        expect(await totals()).toEqual([2, 1, 1]);
        expect(await counted()).toEqual([2, 1, 1]);
      });

      it('are kept by the database, so writes outside the service count too', async () => {
        const stays = await createEmployee(suite.app, suite.tenant);
        const removed = await createEmployee(suite.app, suite.tenant);
        await dataSourceOf(suite.app).query(`DELETE FROM employees WHERE id = $1`, [removed.id]);
        await dataSourceOf(suite.app).query(`UPDATE employees SET left_at = now() WHERE id = $1`, [stays.id]);
        expect(await totals()).toEqual([1, 0, 1]);
        expect(await counted()).toEqual([1, 0, 1]);
      });

      it('leave filtered totals counted', async () => {
        await createEmployee(suite.app, suite.tenant, { departmentId: 'D-1', firstName: 'Zelda' });
        await createEmployee(suite.app, suite.tenant, { departmentId: 'D-2' });
        expect((await get<EmployeeResponse[]>('/employees?departmentId=D-1').expect(200)).body.meta.total).toBe(1);
        expect(
          (await get<EmployeeResponse[]>('/employees?search=zelda&isActive=true').expect(200)).body.meta.total,
        ).toBe(1);
      });
    });

    it.each(['yes', '1', 'TRUE', ''])('rejects isActive=%s with 400', async (value) => {
      const response = await get(`/employees?isActive=${value}`).expect(400);
      expect(response.body.error.details[0].field).toBe('isActive');
    });

    it('filters by departmentId, exactly', async () => {
      const sales = await createEmployee(suite.app, suite.tenant, { departmentId: 'SALES' });
      await createEmployee(suite.app, suite.tenant, { departmentId: 'SALES-EU' });
      await createEmployee(suite.app, suite.tenant, { departmentId: 'sales' });
      await createEmployee(suite.app, suite.tenant);
      const response = await get<EmployeeResponse[]>('/employees?departmentId=SALES').expect(200);
      expect(response.body.data).toEqual([sales]);
      await get(`/employees?departmentId=${'x'.repeat(65)}`).expect(400);
    });

    describe('search', () => {
      let ada: EmployeeResponse;
      let alan: EmployeeResponse;
      let odd: EmployeeResponse;

      beforeEach(async () => {
        ada = await createEmployee(suite.app, suite.tenant, {
          firstName: 'Ada',
          lastName: 'Lovelace',
          businessEmail: 'countess@analytical.example',
          personnelNumber: 'EMP-1815',
        });
        alan = await createEmployee(suite.app, suite.tenant, {
          firstName: 'Alan',
          lastName: 'Turing',
          businessEmail: 'alan@bletchley.example',
          personnelNumber: 'EMP-1912',
        });
        odd = await createEmployee(suite.app, suite.tenant, {
          firstName: '100%',
          lastName: 'Under_Score',
          businessEmail: 'odd@odd.example',
          personnelNumber: 'ODD\\1',
        });
      });

      const idsFor = async (term: string) =>
        (await get<EmployeeResponse[]>(`/employees?search=${encodeURIComponent(term)}`).expect(200)).body.data.map(
          (e) => e.id,
        );

      it.each([
        ['a firstName, in another case', 'aDA', () => [ada.id]],
        ['a lastName substring', 'urin', () => [alan.id]],
        ['"firstName lastName"', 'ada lovelace', () => [ada.id]],
        ['across the space of the full name', 'n tur', () => [alan.id]],
        ['a businessEmail substring', 'BLETCHLEY.ex', () => [alan.id]],
        ['a personnelNumber substring', 'emp-19', () => [alan.id]],
        ['a shared substring, oldest first', 'emp-1', () => [ada.id, alan.id]],
      ])('matches %s', async (_case, term, expected) => {
        expect(await idsFor(term)).toEqual(expected());
      });

      it('treats %, _ and \\ literally', async () => {
        expect(await idsFor('%')).toEqual([odd.id]);
        expect(await idsFor('_')).toEqual([odd.id]);
        expect(await idsFor('\\')).toEqual([odd.id]);
        expect(await idsFor('a%e')).toEqual([]);
        expect(await idsFor('l_v')).toEqual([]);
      });

      it('does not match across two fields', async () => {
        expect(await idsFor('lovelacecountess')).toEqual([]);
        expect(await idsFor('lovelace countess')).toEqual([]);
      });

      it('searches on the trigram index of employee_search', async () => {
        // On a tiny table the planner prefers to scan the organisation's rows in page order. Without those indexes
        // (dropped in a transaction rolled back) and without scans, the trigram index must serve the condition.
        const runner = dataSourceOf(suite.app).createQueryRunner();
        await runner.startTransaction();
        try {
          await runner.query('DROP INDEX employee_search_list_idx');
          await runner.query('DROP INDEX employee_search_updated_idx');
          await runner.query('SET LOCAL enable_seqscan = off');
          const plan: unknown = await runner.query(
            `EXPLAIN SELECT count(*) FROM employee_search
              WHERE organisation_id = $1 AND search_text LIKE '%' || lower($2) || '%'`,
            [suite.tenant.organisationId, 'lovel'],
          );
          expect(JSON.stringify(plan)).toContain('employee_search_trgm_idx');
        } finally {
          await runner.rollbackTransaction();
          await runner.release();
        }
      });

      it('combines with the other filters and counts only matches', async () => {
        await del(`/employees/${alan.id}`).expect(200);
        const response = await get<EmployeeResponse[]>('/employees?search=emp-1&isActive=true').expect(200);
        expect(response.body.data.map((e) => e.id)).toEqual([ada.id]);
        expect(response.body.meta.total).toBe(1);
      });
    });
  });

  describe('GET /employees/{id}', () => {
    it('returns the EmployeeDetail with skills by skillName and only score, ratingType, createdAt of the latest rating', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const zeta = await createSkill(suite.app, suite.tenant, { name: unique('zeta') });
      const alpha = await createSkill(suite.app, suite.tenant, { name: unique('Alpha') });
      await rate(suite.app, suite.tenant, employee.id, zeta.id, { score: 1 });
      const first = await rate(suite.app, suite.tenant, employee.id, alpha.id, { score: 2, comment: 'first' });
      const latest = await rate(suite.app, suite.tenant, employee.id, alpha.id, {
        score: 4,
        ratingType: 'SELF_ASSESMENT',
        comment: 'x',
      });
      const response = await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          ...employee,
          skills: [
            {
              personSkillId: first.personSkillId,
              skillId: alpha.id,
              skillName: alpha.name,
              latestRating: { score: 4, ratingType: 'SELF_ASSESMENT', createdAt: latest.createdAt },
            },
            {
              personSkillId: expect.any(String),
              skillId: zeta.id,
              skillName: zeta.name,
              latestRating: { score: 1, ratingType: 'MANAGER_EVALUATION', createdAt: expect.stringMatching(ISO_MS) },
            },
          ],
        },
      });
    });

    it('returns an employee without skills with an empty skills array', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const response = await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200);
      expect(response.body.data).toEqual({ ...employee, skills: [] });
    });

    it.each([UNKNOWN_ID, 'not-a-uuid', '123'])('answers %s with 404 NOT_FOUND', async (id) => {
      const response = await get(`/employees/${id}`).expect(404);
      expect(response.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    });
  });

  describe('PATCH /employees/{id}', () => {
    it('changes only the supplied fields, clears nullable ones with null and emits employee.updated', async () => {
      const employee = await createEmployee(suite.app, suite.tenant, {
        title: 'Engineer',
        gender: 'x',
        departmentId: 'D1',
      });
      events.clear(suite.tenant.organisationId);
      const response = await patch<EmployeeResponse>(`/employees/${employee.id}`, {
        firstName: 'Augusta',
        title: null,
        hiredAt: '2020-05-01',
        isHRTeamMember: true,
      }).expect(200);
      const expected = {
        ...employee,
        firstName: 'Augusta',
        title: null,
        hiredAt: '2020-05-01T00:00:00.000Z',
        isHRTeamMember: true,
        updatedAt: response.body.data.updatedAt,
        version: 2,
      };
      expect(response.body).toEqual({ success: true, data: expected });
      expect(Date.parse(expected.updatedAt)).toBeGreaterThan(Date.parse(employee.updatedAt));
      expect(events.of(suite.tenant.organisationId)).toEqual([
        { name: 'employee.updated', data: expected, occurredAt: expect.any(String), inTransaction: true },
      ]);
      expect((await get<EmployeeDetailResponse>(`/employees/${employee.id}`)).body.data).toMatchObject(expected);
    });

    it('clears gender, departmentId and hiredAt with null', async () => {
      const employee = await createEmployee(suite.app, suite.tenant, {
        gender: 'x',
        departmentId: 'D1',
        hiredAt: '2020-01-01',
      });
      const response = await patch<EmployeeResponse>(`/employees/${employee.id}`, {
        gender: null,
        departmentId: null,
        hiredAt: null,
      }).expect(200);
      expect(response.body.data).toMatchObject({ gender: null, departmentId: null, hiredAt: null });
    });

    it.each([
      ['firstName null', { firstName: null }, 'firstName'],
      ['personnelNumber null', { personnelNumber: null }, 'personnelNumber'],
      ['businessEmail null', { businessEmail: null }, 'businessEmail'],
      ['isHRTeamMember null', { isHRTeamMember: null }, 'isHRTeamMember'],
      ['lastName empty', { lastName: '' }, 'lastName'],
      ['leftAt not a date', { leftAt: 'soon' }, 'leftAt'],
      ['an unknown field', { id: UNKNOWN_ID }, 'id'],
    ])('rejects %s with 400 and emits nothing', async (_case, body, field) => {
      const employee = await createEmployee(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const response = await patch(`/employees/${employee.id}`, body).expect(400);
      expect(response.body.error.details[0].field).toBe(field);
      expect(events.of(suite.tenant.organisationId)).toEqual([]);
    });

    it('refuses to take another employee’s personnelNumber or email (any case) with 409, changing nothing', async () => {
      const taken = await createEmployee(suite.app, suite.tenant, { businessEmail: 'taken@example.com' });
      const employee = await createEmployee(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      await patch(`/employees/${employee.id}`, { personnelNumber: taken.personnelNumber, firstName: 'Changed' }).expect(
        409,
      );
      await patch(`/employees/${employee.id}`, { businessEmail: 'TAKEN@example.com' }).expect(409);
      expect(events.of(suite.tenant.organisationId)).toEqual([]);
      expect((await get<EmployeeDetailResponse>(`/employees/${employee.id}`)).body.data.firstName).toBe(
        employee.firstName,
      );
    });

    it('keeps its own email when only its case changes', async () => {
      const employee = await createEmployee(suite.app, suite.tenant, { businessEmail: 'me@example.com' });
      const response = await patch<EmployeeResponse>(`/employees/${employee.id}`, {
        businessEmail: 'Me@Example.com',
      }).expect(200);
      expect(response.body.data.businessEmail).toBe('Me@Example.com');
    });

    it('deactivates with leftAt: emits employee.updated, then employee.deactivated', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const response = await patch<EmployeeResponse>(`/employees/${employee.id}`, {
        leftAt: '2026-03-01T12:00:00+01:00',
      }).expect(200);
      expect(response.body.data.leftAt).toBe('2026-03-01T11:00:00.000Z');
      const recorded = events.of(suite.tenant.organisationId);
      expect(recorded.map((event) => event.name)).toEqual(['employee.updated', 'employee.deactivated']);
      expect(recorded.every((event) => JSON.stringify(event.data) === JSON.stringify(response.body.data))).toBe(true);
      expect(recorded.every((event) => event.inTransaction)).toBe(true);
    });

    it('moves leftAt of a deactivated employee with only employee.updated', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await del(`/employees/${employee.id}`).expect(200);
      events.clear(suite.tenant.organisationId);
      const response = await patch<EmployeeResponse>(`/employees/${employee.id}`, { leftAt: '2026-01-01' }).expect(200);
      expect(response.body.data.leftAt).toBe('2026-01-01T00:00:00.000Z');
      expect(events.namesOf(suite.tenant.organisationId)).toEqual(['employee.updated']);
    });

    it('reactivates with leftAt: null, with only employee.updated', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await del(`/employees/${employee.id}`).expect(200);
      events.clear(suite.tenant.organisationId);
      const response = await patch<EmployeeResponse>(`/employees/${employee.id}`, { leftAt: null }).expect(200);
      // Version 1 at creation, 2 when deactivated, 3 when reactivated.
      const reactivated = { ...employee, updatedAt: response.body.data.updatedAt, version: 3 };
      expect(response.body.data).toEqual(reactivated);
      expect(Date.parse(reactivated.updatedAt)).toBeGreaterThan(Date.parse(employee.updatedAt));
      expect(events.of(suite.tenant.organisationId)).toEqual([
        { name: 'employee.updated', data: reactivated, occurredAt: expect.any(String), inTransaction: true },
      ]);
      const active = await get<EmployeeResponse[]>('/employees?isActive=true').expect(200);
      expect(active.body.data.map((e) => e.id)).toEqual([employee.id]);
    });

    it.each([UNKNOWN_ID, 'nope'])('answers %s with 404', async (id) => {
      await patch(`/employees/${id}`, { firstName: 'X' }).expect(404);
    });
  });

  describe('DELETE /employees/{id}', () => {
    it('deactivates: 200 with id and leftAt, the record is kept, employee.deactivated carries the Employee', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      events.clear(suite.tenant.organisationId);
      const before = Date.now();
      const response = await del<DeactivatedEmployeeResponse>(`/employees/${employee.id}`).expect(200);
      expect(response.body).toEqual({
        success: true,
        data: { id: employee.id, leftAt: expect.stringMatching(ISO_MS) },
      });
      const leftAt = response.body.data.leftAt;
      expect(Date.parse(leftAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(events.of(suite.tenant.organisationId)).toEqual([
        {
          name: 'employee.deactivated',
          data: { ...employee, leftAt, updatedAt: leftAt, version: 2 },
          occurredAt: leftAt,
          inTransaction: true,
        },
      ]);
      expect((await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200)).body.data.leftAt).toBe(
        leftAt,
      );
    });

    it('is idempotent: a second DELETE answers the existing leftAt, does not move it and emits nothing', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const first = await del<DeactivatedEmployeeResponse>(`/employees/${employee.id}`).expect(200);
      events.clear(suite.tenant.organisationId);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = await del<DeactivatedEmployeeResponse>(`/employees/${employee.id}`).expect(200);
      expect(second.body.data).toEqual(first.body.data);
      expect(events.of(suite.tenant.organisationId)).toEqual([]);
    });

    it('keeps a leftAt set by PATCH on DELETE', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await patch(`/employees/${employee.id}`, { leftAt: '2025-12-31T23:59:59.999Z' }).expect(200);
      const response = await del<DeactivatedEmployeeResponse>(`/employees/${employee.id}`).expect(200);
      expect(response.body.data.leftAt).toBe('2025-12-31T23:59:59.999Z');
    });

    it('lets a deactivated employee be read, patched and rated', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const skill = await createSkill(suite.app, suite.tenant);
      await del(`/employees/${employee.id}`).expect(200);
      await get(`/employees/${employee.id}`).expect(200);
      await patch(`/employees/${employee.id}`, { title: 'Alumnus' }).expect(200);
      await post(`/employees/${employee.id}/ratings`, { skillId: skill.id, score: 5, ratingType: 'LLM_RATING' }).expect(
        201,
      );
    });

    it.each([UNKNOWN_ID, 'x'])('answers %s with 404', async (id) => {
      await del(`/employees/${id}`).expect(404);
    });
  });
});
