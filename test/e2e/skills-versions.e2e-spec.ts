import type { ParameterObject, ResponseObject } from '@nestjs/swagger';
import { HistoryEntryResponse } from '../../src/history/dto/history-entry.response';
import { SkillResponse } from '../../src/skills/dto/skill.response';
import { SkillGroupResponse } from '../../src/skills/groups/dto/skill-group.response';
import { apiClient } from '../support/api-client';
import { createTenant, dataSourceOf, TestTenant } from '../support/app';
import { itWithConcurrentSessions, NEEDS_A_SERVER } from '../support/database-kind';
import { EventRecorder } from '../support/event-recorder';
import { servedDocument } from '../support/openapi-document';
import { unique } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';
import { withVersionHeaders } from '../support/version-headers';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

type Versioned = { id: string; version: number; name: string; description: string | null };

/** The two catalogue resources, each with what a test needs to make and name one. */
const RESOURCES = [
  { resource: 'Skill', path: '/skills', event: 'skill' },
  { resource: 'SkillGroup', path: '/skill-groups', event: 'skill_group' },
] as const;

describe('versions, If-Match and Base-Version of skills and skill groups (issue 47)', () => {
  const suite = useTestApp();
  let events: EventRecorder;
  beforeAll(() => {
    events = EventRecorder.attach(suite.app);
  });
  afterAll(() => events.detach());

  const { get, post, patch, del, call } = suite.api;
  const organisation = () => suite.tenant.organisationId;
  const withHeaders = withVersionHeaders(call);

  describe.each(RESOURCES)('$path', ({ resource, path, event }) => {
    const make = async (fields: object = {}) =>
      (await post<Versioned>(path, { name: unique(resource), ...fields }).expect(201)).body.data;
    const read = async (id: string) => (await get<Versioned>(`${path}/${id}`).expect(200)).body.data;
    const patchWith = (id: string, headers: Record<string, string>, body: object) =>
      withHeaders<Versioned>('patch', `${path}/${id}`, headers, body);

    it('starts at 1, moves by one per change, not on a no-op PATCH, and is the ETag of GET, POST and PATCH', async () => {
      const created = await post<Versioned>(path, { name: unique(resource) }).expect(201);
      expect(created.body.data.version).toBe(1);
      expect(created.headers.etag).toBe('"1"');
      const { id } = created.body.data;
      const changed = await patch<Versioned>(`${path}/${id}`, { description: 'First' }).expect(200);
      expect(changed.body.data.version).toBe(2);
      expect(changed.headers.etag).toBe('"2"');
      events.clear(organisation());
      const same = await patch<Versioned>(`${path}/${id}`, { description: 'First' }).expect(200);
      expect(same.body.data).toEqual(changed.body.data);
      expect(same.headers.etag).toBe('"2"');
      expect(events.of(organisation())).toEqual([]);
      const got = await get<Versioned>(`${path}/${id}`).expect(200);
      expect(got.body.data.version).toBe(2);
      expect(got.headers.etag).toBe('"2"');
      const listed = await get<Versioned[]>(path).expect(200);
      expect(listed.body.data.find((item) => item.id === id)?.version).toBe(2);
      expect(listed.headers.etag).toBeUndefined();
    });

    it('carries the version in the events of a change', async () => {
      const item = await make();
      events.clear(organisation());
      await patch(`${path}/${item.id}`, { description: 'Changed' }).expect(200);
      expect(events.of(organisation()).map(({ name, data }) => [name, (data as Versioned).version])).toEqual([
        [`${event}.updated`, 2],
      ]);
    });

    it('passes If-Match with the current ETag (also weak, or *) and answers the next', async () => {
      const item = await make();
      expect((await patchWith(item.id, { 'If-Match': '"1"' }, { description: 'A' }).expect(200)).headers.etag).toBe(
        '"2"',
      );
      expect((await patchWith(item.id, { 'If-Match': 'W/"2"' }, { description: 'B' }).expect(200)).headers.etag).toBe(
        '"3"',
      );
      expect((await patchWith(item.id, { 'If-Match': '*' }, { description: 'C' }).expect(200)).headers.etag).toBe(
        '"4"',
      );
    });

    it('refuses an old ETag with 412 naming the fields changed since, and writes and records nothing', async () => {
      const item = await make();
      await patch(`${path}/${item.id}`, { description: 'Changed' }).expect(200);
      events.clear(organisation());
      const refused = await patchWith(item.id, { 'If-Match': '"1"' }, { name: unique('Renamed') }).expect(412);
      expect(refused.body.error).toEqual({
        code: 'PRECONDITION_FAILED',
        message: `The ${resource} is at version 2, not 1: nothing was written`,
        details: [{ field: 'description', message: 'changed since version 1; now "Changed"' }],
      });
      expect(events.of(organisation())).toEqual([]);
      expect(await read(item.id)).toMatchObject({ name: item.name, version: 2 });
    });

    it('answers 200 with the resource when the PATCH is already in place, whatever the ETag', async () => {
      const item = await make();
      await patch(`${path}/${item.id}`, { description: 'Changed' }).expect(200);
      const inPlace = await patchWith(item.id, { 'If-Match': '"1"' }, { description: 'Changed' }).expect(200);
      expect(inPlace.body.data).toMatchObject({ description: 'Changed', version: 2 });
      expect(inPlace.headers.etag).toBe('"2"');
    });

    it.each([['3'], ['"abc"'], ['W/3'], ['"0"']])('answers a malformed If-Match %s with 400', async (tag) => {
      const item = await make();
      const response = await patchWith(item.id, { 'If-Match': tag }, { description: 'X' }).expect(400);
      expect(response.body.error.details[0].field).toBe('If-Match');
      await withHeaders('delete', `${path}/${item.id}`, { 'If-Match': tag }).expect(400);
      expect((await read(item.id)).version).toBe(1);
    });

    it("answers If-Match: * on an unknown id, and any precondition on another organisation's, with 404", async () => {
      await patchWith(UNKNOWN_ID, { 'If-Match': '*' }, { description: 'X' }).expect(404);
      await withHeaders('delete', `${path}/${UNKNOWN_ID}`, { 'If-Match': '*' }).expect(404);
      const other: TestTenant = await createTenant(suite.app, `Other ${resource}`);
      const theirs = (
        await apiClient(
          () => suite.app,
          () => other,
        )
          .post<Versioned>(path, { name: unique(resource) })
          .expect(201)
      ).body.data;
      await patchWith(theirs.id, { 'If-Match': '"1"' }, { description: 'X' }).expect(404);
      await patchWith(theirs.id, { 'Base-Version': '1' }, { description: 'X' }).expect(404);
      await withHeaders('delete', `${path}/${theirs.id}`, { 'If-Match': '"1"' }).expect(404);
    });

    it('merges with Base-Version a change of other fields made since, and answers the merged resource', async () => {
      const item = await make();
      await patch(`${path}/${item.id}`, { description: 'Changed' }).expect(200);
      const name = unique('Merged');
      const merged = await patchWith(item.id, { 'Base-Version': '1' }, { name }).expect(200);
      expect(merged.body.data).toMatchObject({ name, description: 'Changed', version: 3 });
      expect(merged.headers.etag).toBe('"3"');
    });

    it('refuses with Base-Version a change of a field changed since with 409 naming it', async () => {
      const item = await make();
      await patch(`${path}/${item.id}`, { description: 'Changed' }).expect(200);
      events.clear(organisation());
      const refused = await patchWith(
        item.id,
        { 'Base-Version': '1' },
        { description: 'Mine', name: unique('Mine') },
      ).expect(409);
      expect(refused.body.error).toEqual({
        code: 'CONFLICT',
        message: 'Fields this PATCH changes were changed since version 1: nothing was written',
        details: [{ field: 'description', message: 'changed since version 1; now "Changed"' }],
      });
      expect(events.of(organisation())).toEqual([]);
      expect(await read(item.id)).toMatchObject({ name: item.name, description: 'Changed', version: 2 });
    });

    it('answers a Base-Version the resource never had, or older than the kept history, with 409', async () => {
      const item = await make();
      const never = await patchWith(item.id, { 'Base-Version': '7' }, { description: 'X' }).expect(409);
      expect(never.body.error.message).toBe(`Base-Version 7 is not a version of this ${resource}, which is at 1`);
      await patch(`${path}/${item.id}`, { description: 'Changed' }).expect(200);
      await dataSourceOf(suite.app).query(
        `DELETE FROM events WHERE organisation_id = $1 AND resource_id = $2 AND resource_version = 2`,
        [organisation(), item.id],
      );
      const old = await patchWith(item.id, { 'Base-Version': '1' }, { name: unique('X') }).expect(409);
      expect(old.body.error.message).toBe(`Base-Version 1 is older than the kept history of this ${resource}`);
    });

    it('answers both headers, or a malformed Base-Version, with 400 before looking the resource up', async () => {
      const both = await patchWith(UNKNOWN_ID, { 'If-Match': '"1"', 'Base-Version': '1' }, { description: 'X' });
      expect(both.status).toBe(400);
      expect(both.body.error.details[0].field).toBe('Base-Version');
      await patchWith(UNKNOWN_ID, { 'Base-Version': 'one' }, { description: 'X' }).expect(400);
    });

    it('refuses DELETE with an old ETag with 412 naming the fields changed since, and deletes with the current', async () => {
      const item = await make();
      await patch(`${path}/${item.id}`, { description: 'Changed' }).expect(200);
      const refused = await withHeaders('delete', `${path}/${item.id}`, { 'If-Match': '"1"' }).expect(412);
      expect(refused.body.error.details).toEqual([
        { field: 'description', message: 'changed since version 1; now "Changed"' },
      ]);
      await get(`${path}/${item.id}`).expect(200);
      await withHeaders('delete', `${path}/${item.id}`, { 'If-Match': '"2"' }).expect(200);
      await get(`${path}/${item.id}`).expect(404);
    });

    itWithConcurrentSessions(
      `lets exactly one of 20 parallel PATCHes with the same ETag through; the others get 412 ${NEEDS_A_SERVER}`,
      async () => {
        const item = await make();
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_each, index) =>
            patchWith(item.id, { 'If-Match': '"1"' }, { description: `Description ${index}` }),
          ),
        );
        expect(responses.map((response) => response.status).sort()).toEqual([200, ...Array<number>(19).fill(412)]);
        expect((await read(item.id)).version).toBe(2);
      },
    );
  });

  describe('what a version counts', () => {
    it("counts a change of a skill's groups or aliases alone, once, and names it in a 412", async () => {
      const group = (await post<SkillGroupResponse>('/skill-groups', { name: unique('Group') }).expect(201)).body.data;
      const skill = (await post<SkillResponse>('/skills', { name: unique('Skill') }).expect(201)).body.data;
      const grouped = await patch<SkillResponse>(`/skills/${skill.id}`, { groupIds: [group.id] }).expect(200);
      expect(grouped.body.data).toMatchObject({ groups: [{ id: group.id, name: group.name }], version: 2 });
      const aliased = await patch<SkillResponse>(`/skills/${skill.id}`, { aliases: [unique('Alias')] }).expect(200);
      expect(aliased.body.data.version).toBe(3);
      const refused = await withHeaders('patch', `/skills/${skill.id}`, { 'If-Match': '"1"' }, { description: 'X' });
      expect(refused.status).toBe(412);
      expect(refused.body.error.details.map(({ field }: { field: string }) => field)).toEqual(['groups', 'aliases']);
      const inPlace = await withHeaders(
        'patch',
        `/skills/${skill.id}`,
        { 'If-Match': '"1"' },
        { groupIds: [group.id] },
      );
      expect(inPlace.status).toBe(200);
    });

    it("counts a change of a group's parents, and not a rename of a group for the skills in it", async () => {
      const parent = (await post<SkillGroupResponse>('/skill-groups', { name: unique('Parent') }).expect(201)).body
        .data;
      const child = (await post<SkillGroupResponse>('/skill-groups', { name: unique('Child') }).expect(201)).body.data;
      const moved = await patch<SkillGroupResponse>(`/skill-groups/${child.id}`, { parentIds: [parent.id] }).expect(
        200,
      );
      expect(moved.body.data.version).toBe(2);
      const merged = await withHeaders<SkillGroupResponse>(
        'patch',
        `/skill-groups/${child.id}`,
        { 'Base-Version': '1' },
        { parentIds: [] },
      );
      expect(merged.status).toBe(409);
      expect(merged.body.error.details[0].field).toBe('parents');
      const skill = (await post<SkillResponse>('/skills', { name: unique('Skill'), groupIds: [child.id] }).expect(201))
        .body.data;
      await patch(`/skill-groups/${child.id}`, { name: unique('Renamed') }).expect(200);
      expect((await get<SkillResponse>(`/skills/${skill.id}`).expect(200)).body.data.version).toBe(1);
    });

    it("lists a deleted skill's deletion first in its history", async () => {
      const skill = (await post<SkillResponse>('/skills', { name: unique('Skill') }).expect(201)).body.data;
      await patch(`/skills/${skill.id}`, { description: 'Changed' }).expect(200);
      await del(`/skills/${skill.id}`).expect(200);
      const history = await get<HistoryEntryResponse[]>(`/skills/${skill.id}/history`).expect(200);
      expect(history.body.data.map(({ event, version }) => [event, version])).toEqual([
        ['skill.deleted', 2],
        ['skill.updated', 2],
        ['skill.created', 1],
      ]);
    });
  });

  describe('ifMatch and baseVersion in bulk skill items', () => {
    it('checks each update item as PATCH checks the headers, failing only the items refused', async () => {
      const make = async () => (await post<SkillResponse>('/skills', { name: unique('Bulk') }).expect(201)).body.data;
      const [current, stale, merged, clashing, both, inPlace] = await Promise.all(
        Array.from({ length: 6 }, () => make()),
      );
      for (const skill of [stale, merged, clashing, inPlace]) {
        await patch(`/skills/${skill.id}`, { description: 'Changed' }).expect(200);
      }
      const response = await post<unknown[]>('/skills/bulk', {
        items: [
          { name: current.name, ifMatch: 1, description: 'A' },
          { name: stale.name, ifMatch: 1, ratingScaleMax: 7 },
          { name: merged.name, baseVersion: 1, ratingScaleMax: 7 },
          { name: clashing.name, baseVersion: 1, description: 'C' },
          { name: both.name, ifMatch: 1, baseVersion: 1, description: 'D' },
          { name: unique('New'), ifMatch: 1 },
          { name: inPlace.name, ifMatch: 1, description: 'Changed' },
        ],
      }).expect(200);
      const changedSince = [{ field: 'description', message: 'changed since version 1; now "Changed"' }];
      expect(response.body.data).toEqual([
        { index: 0, status: 'updated', id: current.id, error: null },
        {
          index: 1,
          status: 'failed',
          id: null,
          error: {
            code: 'PRECONDITION_FAILED',
            message: 'The Skill is at version 2, not 1: nothing was written',
            details: changedSince,
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
            details: changedSince,
          },
        },
        { index: 4, status: 'failed', id: null, error: expect.objectContaining({ code: 'VALIDATION_ERROR' }) },
        { index: 5, status: 'failed', id: null, error: expect.objectContaining({ code: 'VALIDATION_ERROR' }) },
        { index: 6, status: 'unchanged', id: inPlace.id, error: null },
      ]);
      const stored = async (id: string) => (await get<SkillResponse>(`/skills/${id}`).expect(200)).body.data;
      expect(await stored(current.id)).toMatchObject({ description: 'A', version: 2 });
      expect(await stored(stale.id)).toMatchObject({ ratingScaleMax: 5, version: 2 });
      expect(await stored(merged.id)).toMatchObject({ description: 'Changed', ratingScaleMax: 7, version: 3 });
      expect(await stored(inPlace.id)).toMatchObject({ version: 2 });
    });
  });

  describe('OpenAPI', () => {
    it('documents version, the ETag of answers carrying one skill or group, and If-Match and Base-Version', () => {
      const { paths, components } = servedDocument(suite.app);
      const headersOf = (path: string, method: 'get' | 'post' | 'patch' | 'delete', status: string) =>
        Object.keys((paths[path][method]!.responses[status] as ResponseObject).headers ?? {});
      for (const path of ['/skills', '/skill-groups']) {
        expect(headersOf(`${path}/{id}`, 'get', '200')).toContain('ETag');
        expect(headersOf(`${path}/{id}`, 'patch', '200')).toContain('ETag');
        expect(headersOf(path, 'post', '201')).toContain('ETag');
        expect(headersOf(path, 'get', '200')).not.toContain('ETag');
        const headerParameters = (method: 'patch' | 'delete') =>
          (paths[`${path}/{id}`][method]!.parameters as ParameterObject[])
            .filter((parameter) => parameter.in === 'header')
            .map((parameter) => parameter.name);
        expect(headerParameters('patch')).toEqual(['If-Match', 'Base-Version']);
        expect(headerParameters('delete')).toEqual(['If-Match']);
        expect(Object.keys(paths[`${path}/{id}`].patch!.responses)).toEqual(expect.arrayContaining(['412', '428']));
      }
      const schemas = components!.schemas as Record<string, { properties: Record<string, unknown> }>;
      expect(schemas.BulkSkillItem.properties).toHaveProperty('ifMatch');
      expect(schemas.BulkSkillItem.properties).toHaveProperty('baseVersion');
    });
  });
});
