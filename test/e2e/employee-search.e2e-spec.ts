import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { apiClient } from '../support/api-client';
import { createTenant, dataSourceOf } from '../support/app';
import { createEmployee } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

/** Lets the clock move on, so a later write has a later updatedAt (ms precision). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The search semantics of GET /employees, in JS: the oracle the searched lists are checked against. */
function matches(employee: EmployeeResponse, term: string): boolean {
  const fields = [`${employee.firstName} ${employee.lastName}`, employee.businessEmail, employee.personnelNumber];
  return fields.some((field) => field.toLowerCase().includes(term.toLowerCase()));
}

describe('employee search: results and exact totals from employee_search', () => {
  const suite = useTestApp();

  const { get, patch, del } = suite.api;

  const search = async (query: string) => {
    const response = await get<EmployeeResponse[]>(`/employees?limit=100&${query}`).expect(200);
    return { ids: response.body.data.map((e) => e.id), total: response.body.meta.total };
  };

  /** employee_search holds exactly one up-to-date row per employee of the suite.tenant, and no other of its rows. */
  const expectInStep = async (organisationId = suite.tenant.organisationId) => {
    const database = dataSourceOf(suite.app);
    const kept = await database.query(
      `SELECT employee_id, organisation_id, created_at, updated_at, active, department_id, search_text
         FROM employee_search
        WHERE organisation_id = $1 OR employee_id IN (SELECT id FROM employees WHERE organisation_id = $1)
        ORDER BY employee_id`,
      [organisationId],
    );
    const derived = await database.query(
      `SELECT id AS employee_id, organisation_id, created_at, updated_at, left_at IS NULL AS active, department_id,
              lower(first_name || ' ' || last_name || chr(1) || business_email || chr(1) || personnel_number) AS search_text
         FROM employees WHERE organisation_id = $1 ORDER BY id`,
      [organisationId],
    );
    expect(kept).toEqual(derived);
  };

  it('finds and counts a new employee by each searchable field', async () => {
    const grace = await createEmployee(suite.app, suite.tenant, {
      firstName: 'Grace',
      lastName: 'Hopper',
      businessEmail: 'rear.admiral@navy.example',
      personnelNumber: 'NAVY-1906',
    });
    await createEmployee(suite.app, suite.tenant, { firstName: 'Other', lastName: 'Person' });
    for (const term of ['GRACE', 'hopp', 'grace hopper', 'admiral@navy', 'navy-19']) {
      expect(await search(`search=${encodeURIComponent(term)}`)).toEqual({ ids: [grace.id], total: 1 });
    }
    await expectInStep();
  });

  it('follows a PATCH of the names, the e-mail and the personnel number', async () => {
    const employee = await createEmployee(suite.app, suite.tenant, {
      firstName: 'Hedy',
      lastName: 'Lamarr',
      businessEmail: 'hedy@film.example',
      personnelNumber: 'FILM-1914',
    });
    await patch(`/employees/${employee.id}`, {
      firstName: 'Katharine',
      lastName: 'Johnson',
      businessEmail: 'katharine@orbit.example',
      personnelNumber: 'NASA-1918',
    }).expect(200);
    for (const gone of ['hedy', 'lamarr', 'film.example', 'film-1914']) {
      expect(await search(`search=${gone}`)).toEqual({ ids: [], total: 0 });
    }
    for (const term of ['katharine', 'johnson', 'katharine johnson', 'orbit.example', 'nasa-1918']) {
      expect(await search(`search=${encodeURIComponent(term)}`)).toEqual({ ids: [employee.id], total: 1 });
    }
    await expectInStep();
  });

  it('follows a PATCH of the department, and one that clears it', async () => {
    const employee = await createEmployee(suite.app, suite.tenant, { lastName: 'Meitner', departmentId: 'PHYSICS' });
    await patch(`/employees/${employee.id}`, { departmentId: 'CHEMISTRY' }).expect(200);
    expect(await search('search=meitner&departmentId=PHYSICS')).toEqual({ ids: [], total: 0 });
    expect(await search('search=meitner&departmentId=CHEMISTRY')).toEqual({ ids: [employee.id], total: 1 });
    await expectInStep();
    await patch(`/employees/${employee.id}`, { departmentId: null }).expect(200);
    expect(await search('search=meitner&departmentId=CHEMISTRY')).toEqual({ ids: [], total: 0 });
    expect(await search('search=meitner')).toEqual({ ids: [employee.id], total: 1 });
    await expectInStep();
  });

  it('follows deactivation, a PATCH of leftAt and reactivation under isActive', async () => {
    const stays = await createEmployee(suite.app, suite.tenant, { lastName: 'Noether' });
    const leaves = await createEmployee(suite.app, suite.tenant, { lastName: 'Noether' });
    await del(`/employees/${leaves.id}`).expect(200);
    expect(await search('search=noether&isActive=true')).toEqual({ ids: [stays.id], total: 1 });
    expect(await search('search=noether&isActive=false')).toEqual({ ids: [leaves.id], total: 1 });
    await expectInStep();
    await patch(`/employees/${stays.id}`, { leftAt: '2026-01-01T00:00:00.000Z' }).expect(200);
    expect(await search('search=noether&isActive=true')).toEqual({ ids: [], total: 0 });
    expect(await search('search=noether&isActive=false')).toEqual({ ids: [stays.id, leaves.id], total: 2 });
    await patch(`/employees/${leaves.id}`, { leftAt: null }).expect(200);
    expect(await search('search=noether&isActive=true')).toEqual({ ids: [leaves.id], total: 1 });
    expect(await search('search=noether')).toEqual({ ids: [stays.id, leaves.id], total: 2 });
    await expectInStep();
  });

  it('combines with each filter and with all of them, as the unsearched list filtered by the term', async () => {
    const people: EmployeeResponse[] = [];
    for (const [lastName, departmentId] of [
      ['Curie', 'LAB'],
      ['Curie-Sklodowska', 'LAB'],
      ['Curie', 'OFFICE'],
      ['Franklin', 'LAB'],
      ['Curie', undefined],
    ] as const) {
      people.push(await createEmployee(suite.app, suite.tenant, { lastName, ...(departmentId && { departmentId }) }));
      await tick();
    }
    await del(`/employees/${people[1].id}`).expect(200);
    await tick();
    await patch(`/employees/${people[0].id}`, { title: 'Dr.' }).expect(200);
    const since = people[2].createdAt;

    const filters = [
      'departmentId=LAB',
      'isActive=true',
      'isActive=false',
      `updatedSince=${since}`,
      `departmentId=LAB&isActive=true&updatedSince=${since}`,
      `departmentId=LAB&isActive=false&updatedSince=${since}`,
    ];
    for (const filter of filters) {
      const unsearched = (await get<EmployeeResponse[]>(`/employees?limit=100&${filter}`).expect(200)).body.data;
      const expected = unsearched.filter((e) => matches(e, 'curie')).map((e) => e.id);
      expect({ filter, ...(await search(`search=curie&${filter}`)) }).toEqual({
        filter,
        ids: expected,
        total: expected.length,
      });
    }
    expect((await search('search=curie&departmentId=LAB&isActive=true')).ids).toEqual([people[0].id]);
    await expectInStep();
  });

  it('pages a search by createdAt, then id, with the exact total on every page', async () => {
    const created: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      created.push((await createEmployee(suite.app, suite.tenant, { lastName: `Hamilton-${index}` })).id);
    }
    await createEmployee(suite.app, suite.tenant, { lastName: 'Ride' });
    const pages = [];
    for (const page of [1, 2, 3]) {
      const response = await get<EmployeeResponse[]>(`/employees?search=hamilton&limit=2&page=${page}`).expect(200);
      expect(response.body.meta).toMatchObject({ total: 5, totalPages: 3 });
      pages.push(...response.body.data.map((e) => e.id));
    }
    expect(pages).toEqual(created);
  });

  it("never counts another organisation's employees", async () => {
    const other = await createTenant(suite.app, 'Other');
    const otherClient = apiClient(
      () => suite.app,
      () => other,
    );
    const mine = await createEmployee(suite.app, suite.tenant, { lastName: 'Goodall', departmentId: 'FIELD' });
    const theirs = await createEmployee(suite.app, other, { lastName: 'Goodall', departmentId: 'FIELD' });
    await createEmployee(suite.app, other, { lastName: 'Goodall' });
    expect(await search('search=goodall')).toEqual({ ids: [mine.id], total: 1 });
    expect(await search('search=goodall&departmentId=FIELD&isActive=true')).toEqual({ ids: [mine.id], total: 1 });
    const seen = await otherClient.get<EmployeeResponse[]>('/employees?search=goodall&departmentId=FIELD').expect(200);
    expect(seen.body.data.map((e) => e.id)).toEqual([theirs.id]);
    expect(seen.body.meta.total).toBe(1);
    await expectInStep();
    await expectInStep(other.organisationId);
  });

  it('stays in step with writes outside the service, and with deletions', async () => {
    const renamed = await createEmployee(suite.app, suite.tenant, { lastName: 'Franklin' });
    const removed = await createEmployee(suite.app, suite.tenant, { lastName: 'Franklin' });
    const database = dataSourceOf(suite.app);
    await database.query(`UPDATE employees SET last_name = 'Rosalind', left_at = now() WHERE id = $1`, [renamed.id]);
    await database.query(`DELETE FROM employees WHERE id = $1`, [removed.id]);
    expect(await search('search=franklin')).toEqual({ ids: [], total: 0 });
    expect(await search('search=rosalind&isActive=false')).toEqual({ ids: [renamed.id], total: 1 });
    await expectInStep();

    const closing = await createTenant(suite.app, 'Closing');
    await createEmployee(suite.app, closing, { lastName: 'Franklin' });
    await database.query(`DELETE FROM organisations WHERE id = $1`, [closing.organisationId]);
    const [left] = await database.query(
      `SELECT count(*)::int AS rows FROM employee_search WHERE organisation_id = $1`,
      [closing.organisationId],
    );
    expect(left.rows).toBe(0);
  });
});
