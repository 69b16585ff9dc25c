import { SkillResponse } from '../../src/skills/dto/skill.response';
import { SkillGroupDetailResponse, SkillGroupResponse } from '../../src/skills/groups/dto/skill-group.response';
import { apiClient } from '../support/api-client';
import { createTenant } from '../support/app';
import { readFeed } from '../support/event-feed';
import { createSkill } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

interface FeedEvent {
  event: string;
  data: { id: string };
  changes?: Record<string, unknown>;
}

describe('skill groups: a polyhierarchy without circles', () => {
  const suite = useTestApp();
  const { get, post, patch, del } = suite.api;

  const group = async (name: string, parentIds: string[] = [], fields: object = {}) =>
    (await post<SkillGroupResponse>('/skill-groups', { name, parentIds, ...fields }).expect(201)).body.data;

  it('creates a group with several parents and reads it back with its skill count', async () => {
    const digital = await group('digital');
    const languages = await group('languages');
    const created = await post<SkillGroupResponse>('/skill-groups', {
      name: 'programming languages',
      description: 'Languages people program in',
      source: 'esco',
      externalId: 'http://data.europa.eu/esco/skill/S5.6.1',
      parentIds: [languages.id, digital.id],
    }).expect(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'programming languages',
      description: 'Languages people program in',
      source: 'esco',
      externalId: 'http://data.europa.eu/esco/skill/S5.6.1',
      parents: [
        { id: digital.id, name: 'digital' },
        { id: languages.id, name: 'languages' },
      ],
      createdAt: expect.any(String),
      updatedAt: created.body.data.createdAt,
      version: 1,
    });
    const detail = await get<SkillGroupDetailResponse>(`/skill-groups/${created.body.data.id}`).expect(200);
    expect(detail.body.data).toEqual({ ...created.body.data, skillCount: 0 });
  });

  it('lists by search, by parentId (direct children) and parentId=root, paged', async () => {
    const top = await group('Top');
    const child = await group('Child one', [top.id]);
    const grandchild = await group('grandchild', [child.id]);
    const ids = (response: { body: { data: SkillGroupResponse[] } }) => response.body.data.map(({ id }) => id);
    expect(ids(await get('/skill-groups?parentId=root').expect(200))).toEqual([top.id]);
    expect(ids(await get(`/skill-groups?parentId=${top.id}`).expect(200))).toEqual([child.id]);
    expect(ids(await get(`/skill-groups?parentId=${child.id}`).expect(200))).toEqual([grandchild.id]);
    expect(ids(await get('/skill-groups?search=CHILD').expect(200))).toEqual([child.id, grandchild.id]);
    const page = await get('/skill-groups?limit=2&page=2').expect(200);
    expect(ids(page)).toEqual([grandchild.id]);
    expect(page.body.meta).toMatchObject({ total: 3, page: 2, limit: 2 });
    await get(`/skill-groups?parentId=${UNKNOWN_ID}`).expect(404);
    await get('/skill-groups?parentId=nope').expect(404);
  });

  it('refuses a change that would make a group its own ancestor with 409, changing nothing', async () => {
    const a = await group('a');
    const b = await group('b', [a.id]);
    const c = await group('c', [b.id]);
    expect((await patch(`/skill-groups/${a.id}`, { parentIds: [c.id] }).expect(409)).body.error.code).toBe('CONFLICT');
    await patch(`/skill-groups/${a.id}`, { parentIds: [a.id] }).expect(409);
    await patch(`/skill-groups/${b.id}`, { name: 'b2', parentIds: [c.id] }).expect(409);
    expect((await get<SkillGroupResponse>(`/skill-groups/${b.id}`).expect(200)).body.data).toMatchObject({
      name: 'b',
      parents: [{ id: a.id, name: 'a' }],
    });
    const moved = await patch<SkillGroupResponse>(`/skill-groups/${c.id}`, { parentIds: [a.id, b.id] }).expect(200);
    expect(moved.body.data.parents.map(({ id }) => id).sort()).toEqual([a.id, b.id].sort());
    expect(moved.body.data.updatedAt > c.updatedAt).toBe(true);
  });

  it('lists with GET /skills?groupId= the skills of the group and of every group below it, and counts them', async () => {
    const top = await group('top');
    const left = await group('left', [top.id]);
    const right = await group('right', [top.id]);
    const shared = await group('shared', [left.id, right.id]);
    const elsewhere = await group('elsewhere');
    const inTop = await createSkill(suite.app, suite.tenant, { groupIds: [top.id] });
    const inShared = await createSkill(suite.app, suite.tenant, { groupIds: [shared.id, elsewhere.id] });
    const inRight = await createSkill(suite.app, suite.tenant, { groupIds: [right.id] });
    await createSkill(suite.app, suite.tenant, { groupIds: [elsewhere.id] });
    await createSkill(suite.app, suite.tenant);
    const listed = await get<SkillResponse[]>(`/skills?groupId=${top.id}`).expect(200);
    expect(listed.body.data.map(({ id }) => id)).toEqual([inTop.id, inShared.id, inRight.id]);
    expect(listed.body.meta).toMatchObject({ total: 3 });
    const underLeft = await get<SkillResponse[]>(`/skills?groupId=${left.id}`).expect(200);
    expect(underLeft.body.data.map(({ id }) => id)).toEqual([inShared.id]);
    const detail = await get<SkillGroupDetailResponse>(`/skill-groups/${top.id}`).expect(200);
    expect(detail.body.data.skillCount).toBe(3);
  });

  it('refuses to delete a group with child groups (409); a deleted group’s skills just leave it', async () => {
    const parent = await group('parent');
    const child = await group('child', [parent.id]);
    const skill = await createSkill(suite.app, suite.tenant, { groupIds: [child.id, parent.id] });
    await del(`/skill-groups/${parent.id}`).expect(409);
    await del(`/skill-groups/${child.id}`).expect(200);
    await del(`/skill-groups/${parent.id}`).expect(200);
    await get(`/skill-groups/${parent.id}`).expect(404);
    expect((await get<SkillResponse>(`/skills/${skill.id}`).expect(200)).body.data.groups).toEqual([]);
  });

  it('refuses a taken source + externalId (409), an unknown parent (404), and a bad body (400)', async () => {
    await group('one', [], { source: 'esco', externalId: 'g1' });
    await post('/skill-groups', { name: 'two', source: 'esco', externalId: 'g1' }).expect(409);
    await post('/skill-groups', { name: 'two', parentIds: [UNKNOWN_ID] }).expect(404);
    const response = await post('/skill-groups', { name: '' }).expect(400);
    expect(response.body.error.details[0].field).toBe('name');
    const two = await group('two');
    await patch(`/skill-groups/${two.id}`, { name: null }).expect(400);
    await patch(`/skill-groups/${two.id}`, { source: 'esco', externalId: 'g1' }).expect(409);
  });

  it('records skill_group.created, .updated (with changes) and .deleted in the feed only', async () => {
    const created = await group('feed');
    await patch(`/skill-groups/${created.id}`, { name: 'feed' }).expect(200);
    await patch(`/skill-groups/${created.id}`, { description: 'changed' }).expect(200);
    await del(`/skill-groups/${created.id}`).expect(200);
    const events = await readFeed<FeedEvent>(
      async (query) => (await get(`/events${query}`).expect(200)).body,
      (listed) => listed.length >= 3,
    );
    expect(events.map(({ event, data, changes }) => ({ event, id: data.id, changes }))).toEqual([
      { event: 'skill_group.created', id: created.id, changes: undefined },
      {
        event: 'skill_group.updated',
        id: created.id,
        changes: { description: { previous: null, current: 'changed' } },
      },
      { event: 'skill_group.deleted', id: created.id, changes: undefined },
    ]);
    for (const name of ['skill_group.created', 'skill_group.updated', 'skill_group.deleted']) {
      await post('/webhooks', { url: 'https://example.com/hook', events: [name] }).expect(400);
    }
  });

  it('answers 404 to another organisation on every route of groups, and on the skills filter', async () => {
    const mine = await group('mine');
    const other = apiClient(
      () => suite.app,
      () => otherTenant,
    );
    const otherTenant = await createTenant(suite.app);
    await other.get(`/skill-groups/${mine.id}`).expect(404);
    await other.patch(`/skill-groups/${mine.id}`, { name: 'theirs' }).expect(404);
    await other.del(`/skill-groups/${mine.id}`).expect(404);
    await other.get(`/skill-groups?parentId=${mine.id}`).expect(404);
    await other.get(`/skills?groupId=${mine.id}`).expect(404);
    await other.post('/skill-groups', { name: 'child', parentIds: [mine.id] }).expect(404);
    expect((await other.get('/skill-groups').expect(200)).body.data).toEqual([]);
  });
});
