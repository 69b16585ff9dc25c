import type { ParameterObject, ResponseObject } from '@nestjs/swagger';
import { cliWrite } from '../../src/database/write-context';
import { EmployeeDetailResponse, EmployeeResponse } from '../../src/employees/dto/employee.response';
import { EmployeesService } from '../../src/employees/employees.service';
import { WebhookResponse } from '../../src/webhooks/dto/webhook.response';
import { createTenant, dataSourceOf } from '../support/app';
import { countQueries } from '../support/count-queries';
import { itWithConcurrentSessions, NEEDS_A_SERVER } from '../support/database-kind';
import { EventRecorder } from '../support/event-recorder';
import { servedDocument } from '../support/openapi-document';
import { createEmployee } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';
import { withVersionHeaders } from '../support/version-headers';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

describe('versions, If-Match and Base-Version (issue 47)', () => {
  const suite = useTestApp();
  let events: EventRecorder;
  beforeAll(() => {
    events = EventRecorder.attach(suite.app);
  });
  afterAll(() => events.detach());

  const { get, post, patch, del, call } = suite.api;
  const withHeaders = withVersionHeaders(call);
  const patchWith = (id: string, headers: Record<string, string>, body: object) =>
    withHeaders<EmployeeResponse>('patch', `/employees/${id}`, headers, body);
  const organisation = () => suite.tenant.organisationId;

  describe('version and ETag', () => {
    it('starts at 1, moves by one per change, not on a no-op PATCH, and is the ETag of GET, POST and PATCH', async () => {
      const created = await post<EmployeeResponse>('/employees', {
        personnelNumber: 'V-1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        businessEmail: 'ada@example.com',
      }).expect(201);
      expect(created.body.data.version).toBe(1);
      expect(created.headers.etag).toBe('"1"');
      const id = created.body.data.id;
      const changed = await patch<EmployeeResponse>(`/employees/${id}`, { title: 'Countess' }).expect(200);
      expect(changed.body.data.version).toBe(2);
      expect(changed.headers.etag).toBe('"2"');
      const same = await patch<EmployeeResponse>(`/employees/${id}`, { title: 'Countess' }).expect(200);
      expect(same.body.data).toEqual(changed.body.data);
      const read = await get<EmployeeDetailResponse>(`/employees/${id}`).expect(200);
      expect(read.body.data.version).toBe(2);
      expect(read.headers.etag).toBe('"2"');
      const listed = await get<EmployeeResponse[]>('/employees').expect(200);
      expect(listed.body.data.map((employee) => employee.version)).toEqual([2]);
      expect(listed.headers.etag).toBeUndefined();
      await del(`/employees/${id}`).expect(200);
      expect((await get<EmployeeDetailResponse>(`/employees/${id}`).expect(200)).body.data.version).toBe(3);
    });

    it('carries the version in the events of a change', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      events.clear(organisation());
      await patch(`/employees/${employee.id}`, { leftAt: '2026-01-31T00:00:00Z' }).expect(200);
      expect(events.of(organisation()).map(({ name, data }) => [name, (data as EmployeeResponse).version])).toEqual([
        ['employee.updated', 2],
        ['employee.deactivated', 2],
      ]);
    });

    it('gives a bulk update the next version', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await post('/employees/bulk', { items: [{ personnelNumber: employee.personnelNumber, title: 'X' }] }).expect(200);
      expect((await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200)).body.data.version).toBe(2);
    });
  });

  describe('If-Match on PATCH', () => {
    it('passes with the current ETag (also weak, or *) and answers the next', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const first = await patchWith(employee.id, { 'If-Match': '"1"' }, { title: 'A' }).expect(200);
      expect(first.headers.etag).toBe('"2"');
      const second = await patchWith(employee.id, { 'If-Match': 'W/"2"' }, { title: 'B' }).expect(200);
      expect(second.headers.etag).toBe('"3"');
      const third = await patchWith(employee.id, { 'If-Match': '*' }, { title: 'C' }).expect(200);
      expect(third.headers.etag).toBe('"4"');
    });

    it('refuses an old ETag with 412 naming the fields changed since, writes nothing and emits nothing', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(200);
      await patch(`/employees/${employee.id}`, { departmentId: 'D-9' }).expect(200);
      events.clear(organisation());
      const refused = await patchWith(employee.id, { 'If-Match': '"1"' }, { firstName: 'Augusta' }).expect(412);
      expect(refused.body.error).toEqual({
        code: 'PRECONDITION_FAILED',
        message: 'The Employee is at version 3, not 1: nothing was written',
        details: [
          { field: 'title', message: 'changed since version 1; now "CTO"' },
          { field: 'departmentId', message: 'changed since version 1; now "D-9"' },
        ],
      });
      expect(events.of(organisation())).toEqual([]);
      const stored = (await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200)).body.data;
      expect(stored).toMatchObject({ firstName: employee.firstName, version: 3 });
    });

    it('answers 200 with the resource when the PATCH is already in place, whatever the ETag', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(200);
      events.clear(organisation());
      const inPlace = await patchWith(employee.id, { 'If-Match': '"1"' }, { title: 'CTO' }).expect(200);
      expect(inPlace.body.data).toMatchObject({ title: 'CTO', version: 2 });
      expect(inPlace.headers.etag).toBe('"2"');
      expect(events.of(organisation())).toEqual([]);
    });

    it.each([['3'], ['"abc"'], ['W/3'], ['"0"'], ['"1", x']])(
      'answers a malformed If-Match %s with 400',
      async (tag) => {
        const employee = await createEmployee(suite.app, suite.tenant);
        const response = await patchWith(employee.id, { 'If-Match': tag }, { title: 'X' }).expect(400);
        expect(response.body.error.code).toBe('VALIDATION_ERROR');
        expect(response.body.error.details[0].field).toBe('If-Match');
      },
    );

    it('answers If-Match: * on an unknown id, and any If-Match of another organisation, with 404', async () => {
      await patchWith(UNKNOWN_ID, { 'If-Match': '*' }, { title: 'X' }).expect(404);
      await call('delete', `/employees/${UNKNOWN_ID}`).set('If-Match', '*').expect(404);
      const theirs = await createEmployee(suite.app, await createTenant(suite.app, 'Other'));
      await patchWith(theirs.id, { 'If-Match': '"1"' }, { title: 'X' }).expect(404);
      await patchWith(theirs.id, { 'Base-Version': '1' }, { title: 'X' }).expect(404);
    });
  });

  describe('Base-Version on PATCH', () => {
    it('merges a change of other fields made since, keeping both, and answers the merged employee', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(200);
      const merged = await patchWith(employee.id, { 'Base-Version': '1' }, { departmentId: 'D-1' }).expect(200);
      expect(merged.body.data).toMatchObject({ title: 'CTO', departmentId: 'D-1', version: 3 });
      expect(merged.headers.etag).toBe('"3"');
    });

    it('refuses a change of a field changed since with 409 naming it, and writes nothing', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(200);
      events.clear(organisation());
      const refused = await patchWith(employee.id, { 'Base-Version': '1' }, { title: 'CEO', gender: 'f' }).expect(409);
      expect(refused.body.error).toEqual({
        code: 'CONFLICT',
        message: 'Fields this PATCH changes were changed since version 1: nothing was written',
        details: [{ field: 'title', message: 'changed since version 1; now "CTO"' }],
      });
      expect(events.of(organisation())).toEqual([]);
      const stored = (await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200)).body.data;
      expect(stored).toMatchObject({ title: 'CTO', gender: null, version: 2 });
    });

    it('reads what changed since with the row lock: a merge sends no more statements than a plain PATCH', async () => {
      const employees = suite.app.get(EmployeesService);
      const dataSource = dataSourceOf(suite.app);
      const employee = await createEmployee(suite.app, suite.tenant);
      await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(200);
      const plain = await countQueries(dataSource, () =>
        employees.update(organisation(), employee.id, { gender: 'f' }, cliWrite()),
      );
      const merged = await countQueries(dataSource, async () => {
        const answer = await employees.update(organisation(), employee.id, { departmentId: 'D-1' }, cliWrite(), {
          baseVersion: 2,
        });
        expect(answer).toMatchObject({ title: 'CTO', gender: 'f', departmentId: 'D-1', version: 4 });
      });
      expect(merged).toBe(plain);
    });

    it('counts a deactivation by DELETE as a change of leftAt', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await del(`/employees/${employee.id}`).expect(200);
      const refused = await patchWith(employee.id, { 'Base-Version': '1' }, { leftAt: null }).expect(409);
      expect(refused.body.error.details.map(({ field }) => field)).toEqual(['leftAt']);
    });

    it('answers a version the employee never had with 409', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      const refused = await patchWith(employee.id, { 'Base-Version': '7' }, { title: 'X' }).expect(409);
      expect(refused.body.error.code).toBe('CONFLICT');
    });

    it('answers a version older than the kept history with 409', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(200);
      await dataSourceOf(suite.app).query(
        `DELETE FROM events WHERE organisation_id = $1 AND resource_id = $2 AND resource_version = 2`,
        [organisation(), employee.id],
      );
      const refused = await patchWith(employee.id, { 'Base-Version': '1' }, { departmentId: 'D' }).expect(409);
      expect(refused.body.error.message).toBe('Base-Version 1 is older than the kept history of this Employee');
    });

    it('answers both headers, or a malformed Base-Version, with 400 before looking the employee up', async () => {
      const both = await patchWith(UNKNOWN_ID, { 'If-Match': '"1"', 'Base-Version': '1' }, { title: 'X' }).expect(400);
      expect(both.body.error.details[0].field).toBe('Base-Version');
      await patchWith(UNKNOWN_ID, { 'Base-Version': 'one' }, { title: 'X' }).expect(400);
    });
  });

  describe('If-Match on DELETE and erase', () => {
    it('refuses an old ETag on DELETE with 412, and deactivates with the current one', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(200);
      const refused = await call('delete', `/employees/${employee.id}`).set('If-Match', '"1"').expect(412);
      expect(refused.body.error.details).toEqual([{ field: 'title', message: 'changed since version 1; now "CTO"' }]);
      expect((await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200)).body.data.leftAt).toBeNull();
      await call('delete', `/employees/${employee.id}`).set('If-Match', '"2"').expect(200);
    });

    it('refuses an old ETag on erase with 412 and keeps the employee; erases with the current one', async () => {
      const employee = await createEmployee(suite.app, suite.tenant);
      await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(200);
      await call('post', `/employees/${employee.id}/erase`).set('If-Match', '"1"').expect(412);
      await get(`/employees/${employee.id}`).expect(200);
      await call('post', `/employees/${employee.id}/erase`).set('If-Match', '"2"').expect(200);
      await get(`/employees/${employee.id}`).expect(404);
    });

    it('refuses an old ETag on DELETE /webhooks/{id} with 412, and deletes with the current one', async () => {
      const endpoint = (
        await post<WebhookResponse>('/webhooks', {
          url: 'https://hooks.example.com/v',
          events: ['employee.created'],
        }).expect(201)
      ).body.data;
      await post(`/webhooks/${endpoint.id}/rotate-secret`, { secret: 'new-secret-value' }).expect(200);
      const refused = await call('delete', `/webhooks/${endpoint.id}`).set('If-Match', '"1"').expect(412);
      expect(refused.body.error.code).toBe('PRECONDITION_FAILED');
      await call('delete', `/webhooks/${endpoint.id}`).set('If-Match', '"2"').expect(200);
    });
  });

  describe('ifMatch and baseVersion in bulk items', () => {
    it('checks each update item as PATCH checks the headers, failing only the items refused', async () => {
      const [current, stale, merged, clashing, both] = await Promise.all(
        Array.from({ length: 5 }, () => createEmployee(suite.app, suite.tenant)),
      );
      for (const employee of [stale, merged, clashing]) {
        await patch(`/employees/${employee.id}`, { title: 'CTO' }).expect(200);
      }
      const response = await post<unknown[]>('/employees/bulk', {
        items: [
          { personnelNumber: current.personnelNumber, ifMatch: 1, title: 'A' },
          { personnelNumber: stale.personnelNumber, ifMatch: 1, title: 'B' },
          { personnelNumber: merged.personnelNumber, baseVersion: 1, departmentId: 'D' },
          { personnelNumber: clashing.personnelNumber, baseVersion: 1, title: 'C' },
          { personnelNumber: both.personnelNumber, ifMatch: 1, baseVersion: 1, title: 'D' },
          { personnelNumber: 'NEW-1', firstName: 'N', lastName: 'N', businessEmail: 'n@example.com', ifMatch: 1 },
        ],
      }).expect(200);
      expect(response.body.data).toEqual([
        { index: 0, status: 'updated', id: current.id, error: null },
        {
          index: 1,
          status: 'failed',
          id: null,
          error: {
            code: 'PRECONDITION_FAILED',
            message: 'The Employee is at version 2, not 1: nothing was written',
            details: [{ field: 'title', message: 'changed since version 1; now "CTO"' }],
          },
        },
        { index: 2, status: 'updated', id: merged.id, error: null },
        {
          index: 3,
          status: 'failed',
          id: null,
          error: {
            code: 'CONFLICT',
            message: 'Fields this PATCH changes were changed since version 1: nothing was written',
            details: [{ field: 'title', message: 'changed since version 1; now "CTO"' }],
          },
        },
        { index: 4, status: 'failed', id: null, error: expect.objectContaining({ code: 'VALIDATION_ERROR' }) },
        { index: 5, status: 'failed', id: null, error: expect.objectContaining({ code: 'VALIDATION_ERROR' }) },
      ]);
      const read = async (id: string) => (await get<EmployeeDetailResponse>(`/employees/${id}`).expect(200)).body.data;
      expect(await read(stale.id)).toMatchObject({ title: 'CTO', version: 2 });
      expect(await read(merged.id)).toMatchObject({ title: 'CTO', departmentId: 'D', version: 3 });
    });
  });

  describe('OpenAPI', () => {
    it('documents the ETag of answers carrying one versioned resource, and If-Match and Base-Version', () => {
      const { paths } = servedDocument(suite.app);
      const headersOf = (path: string, method: 'get' | 'post' | 'patch' | 'delete', status: string) =>
        Object.keys((paths[path][method]!.responses[status] as ResponseObject).headers ?? {});
      expect(headersOf('/employees/{id}', 'get', '200')).toContain('ETag');
      expect(headersOf('/employees/{id}', 'patch', '200')).toContain('ETag');
      expect(headersOf('/employees', 'post', '201')).toContain('ETag');
      expect(headersOf('/webhooks', 'post', '201')).toContain('ETag');
      expect(headersOf('/employees', 'get', '200')).not.toContain('ETag');
      expect(headersOf('/employees/{id}', 'delete', '200')).not.toContain('ETag');
      const headerParameters = (path: string, method: 'patch' | 'delete' | 'post') =>
        (paths[path][method]!.parameters as ParameterObject[]).filter((p) => p.in === 'header').map((p) => p.name);
      expect(headerParameters('/employees/{id}', 'patch')).toEqual(['If-Match', 'Base-Version']);
      expect(headerParameters('/employees/{id}', 'delete')).toEqual(['If-Match']);
      expect(headerParameters('/webhooks/{id}', 'delete')).toEqual(['If-Match']);
      expect(Object.keys(paths['/employees/{id}'].patch!.responses)).toEqual(expect.arrayContaining(['412', '428']));
    });
  });

  describe('concurrency', () => {
    itWithConcurrentSessions(
      `lets exactly one of 20 parallel PATCHes with the same ETag through; the others get 412 ${NEEDS_A_SERVER}`,
      async () => {
        const employee = await createEmployee(suite.app, suite.tenant);
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_each, index) =>
            patchWith(employee.id, { 'If-Match': '"1"' }, { title: `Title ${index}` }),
          ),
        );
        const statuses = responses.map((response) => response.status).sort();
        expect(statuses).toEqual([200, ...Array<number>(19).fill(412)]);
        const stored = (await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200)).body.data;
        expect(stored.version).toBe(2);
      },
    );

    itWithConcurrentSessions(
      `applies parallel PATCHes of every different field with the same Base-Version, each kept ${NEEDS_A_SERVER}`,
      async () => {
        const employee = await createEmployee(suite.app, suite.tenant, { isHRTeamMember: false });
        const changes: Record<string, unknown>[] = [
          { personnelNumber: `${employee.personnelNumber}-x` },
          { firstName: 'Augusta' },
          { lastName: 'King' },
          { businessEmail: `x-${employee.businessEmail}` },
          { title: 'Countess' },
          { gender: 'female' },
          { departmentId: 'D-7' },
          { hiredAt: '2020-01-01T00:00:00.000Z' },
          { leftAt: '2030-01-01T00:00:00.000Z' },
          { isHRTeamMember: true },
        ];
        const responses = await Promise.all(
          changes.map((change) => patchWith(employee.id, { 'Base-Version': '1' }, change)),
        );
        expect(responses.map((response) => response.status)).toEqual(changes.map(() => 200));
        const stored = (await get<EmployeeDetailResponse>(`/employees/${employee.id}`).expect(200)).body.data;
        expect(stored).toMatchObject(Object.assign({ version: 1 + changes.length }, ...changes) as object);
      },
    );
  });
});
