import { SkillResponse } from '../../src/skills/dto/skill.response';
import { SkillGroupResponse } from '../../src/skills/groups/dto/skill-group.response';
import { apiClient } from '../support/api-client';
import { createTenant } from '../support/app';
import { createSkill } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const UNKNOWN_ID = '0192f3a4-5b6c-7d8e-9f00-112233445566';

describe('the skills catalogue: aliases, hidden aliases, source and externalId, groups of a skill', () => {
  const suite = useTestApp();
  const { get, post, patch } = suite.api;

  const group = async (name: string, parentIds: string[] = []) =>
    (await post<SkillGroupResponse>('/skill-groups', { name, parentIds }).expect(201)).body.data;

  it('round-trips aliases, hidden aliases, groups, source and externalId through POST, GET, list and PATCH', async () => {
    const languages = await group('programming languages');
    const web = await group('web programming');
    const created = await post<SkillResponse>('/skills', {
      name: 'JavaScript',
      aliases: ['JS', 'ECMAScript'],
      hiddenAliases: ['Java script'],
      groupIds: [web.id, languages.id],
      source: 'esco',
      externalId: 'http://data.europa.eu/esco/skill/javascript',
    }).expect(201);
    const expected = {
      name: 'JavaScript',
      aliases: ['JS', 'ECMAScript'],
      hiddenAliases: ['Java script'],
      groups: [
        { id: languages.id, name: 'programming languages' },
        { id: web.id, name: 'web programming' },
      ],
      source: 'esco',
      externalId: 'http://data.europa.eu/esco/skill/javascript',
    };
    expect(created.body.data).toMatchObject(expected);
    const skill = created.body.data;
    expect((await get<SkillResponse>(`/skills/${skill.id}`).expect(200)).body.data).toMatchObject(expected);
    expect((await get<SkillResponse[]>('/skills').expect(200)).body.data).toEqual([skill]);

    const changed = await patch<SkillResponse>(`/skills/${skill.id}`, {
      aliases: ['ECMAScript'],
      groupIds: [web.id],
      externalId: null,
    }).expect(200);
    expect(changed.body.data).toMatchObject({
      aliases: ['ECMAScript'],
      hiddenAliases: ['Java script'],
      groups: [{ id: web.id, name: 'web programming' }],
      source: 'esco',
      externalId: null,
    });
    expect(changed.body.data.updatedAt > skill.updatedAt).toBe(true);
    expect((await get<SkillResponse>(`/skills/${skill.id}`).expect(200)).body.data).toEqual({
      ...changed.body.data,
      employeeCount: 0,
    });
  });

  it('moves updatedAt on a change of aliases alone, and leaves it on a PATCH that changes nothing', async () => {
    const skill = await createSkill(suite.app, suite.tenant, { aliases: ['a1'] });
    const same = await patch<SkillResponse>(`/skills/${skill.id}`, { aliases: ['a1'], hiddenAliases: [] }).expect(200);
    expect(same.body.data).toEqual(skill);
    const changed = await patch<SkillResponse>(`/skills/${skill.id}`, { hiddenAliases: ['a2'] }).expect(200);
    expect(changed.body.data.updatedAt > skill.updatedAt).toBe(true);
  });

  it('refuses a name equal to another skill’s alias with 409 naming that skill', async () => {
    const javascript = await createSkill(suite.app, suite.tenant, { name: 'JavaScript', aliases: ['JS'] });
    const response = await post('/skills', { name: 'js' }).expect(409);
    expect(response.body.error).toMatchObject({
      code: 'CONFLICT',
      details: [{ field: 'name', message: expect.stringContaining(javascript.id) }],
    });
    const other = await createSkill(suite.app, suite.tenant);
    const renamed = await patch(`/skills/${other.id}`, { name: 'JS' }).expect(409);
    expect(renamed.body.error.details[0].message).toContain(javascript.id);
  });

  it('refuses an alias (or hidden alias) equal to any skill’s name with 409 naming that skill', async () => {
    const typescript = await createSkill(suite.app, suite.tenant, { name: 'TypeScript' });
    const response = await post('/skills', { name: 'JavaScript', aliases: ['typescript'] }).expect(409);
    expect(response.body.error).toMatchObject({
      code: 'CONFLICT',
      details: [{ field: 'aliases', message: expect.stringContaining(typescript.id) }],
    });
    const javascript = await createSkill(suite.app, suite.tenant, { name: 'JavaScript' });
    const hidden = await patch(`/skills/${javascript.id}`, { hiddenAliases: ['TYPESCRIPT'] }).expect(409);
    expect(hidden.body.error.details).toEqual([
      { field: 'hiddenAliases', message: expect.stringContaining(typescript.id) },
    ]);
  });

  it('lets two skills share an alias (taxonomies do)', async () => {
    await createSkill(suite.app, suite.tenant, { name: 'Java', aliases: ['JVM languages'] });
    await post('/skills', { name: 'Kotlin', aliases: ['jvm  languages'] }).expect(201);
  });

  it('compares names after NFKC, lower case, accents removed and white space runs made one: "Café" = "cafe"', async () => {
    await createSkill(suite.app, suite.tenant, { name: 'Café' });
    await post('/skills', { name: 'cafe' }).expect(409);
    await post('/skills', { name: 'CAFE\u0301' }).expect(409);
    await createSkill(suite.app, suite.tenant, { name: 'Java Script' });
    await post('/skills', { name: 'javascript' }).expect(201);
    await post('/skills', { name: 'java   script' }).expect(409);
  });

  it('refuses an alias twice on one skill, in either list, with 400 naming it', async () => {
    const response = await post('/skills', { name: 'Go', aliases: ['golang'], hiddenAliases: ['GoLang'] }).expect(400);
    expect(response.body.error.details).toEqual([{ field: 'hiddenAliases[0]', message: expect.any(String) }]);
  });

  it.each([
    ['aliases not an array', { aliases: 'JS' }, 'aliases'],
    ['an empty alias', { aliases: [''] }, 'aliases'],
    ['an alias over 200', { aliases: ['x'.repeat(201)] }, 'aliases'],
    ['101 aliases', { aliases: Array.from({ length: 101 }, (_v, index) => `a${index}`) }, 'aliases'],
    ['hiddenAliases null', { hiddenAliases: null }, 'hiddenAliases'],
    ['source over 50', { source: 'x'.repeat(51) }, 'source'],
    ['externalId over 500', { externalId: 'x'.repeat(501) }, 'externalId'],
    ['groupIds not strings', { groupIds: [1] }, 'groupIds'],
  ])('rejects %s with 400', async (_case, fields, field) => {
    const response = await post('/skills', { name: 'Rust', ...fields }).expect(400);
    expect(response.body.error.details[0].field).toBe(field);
  });

  it('refuses a taken source + externalId with 409, and allows it in another source', async () => {
    await createSkill(suite.app, suite.tenant, { source: 'esco', externalId: 'uri:1' });
    const response = await post('/skills', { name: 'Other', source: 'esco', externalId: 'uri:1' }).expect(409);
    expect(response.body.error.message).toContain('externalId');
    await post('/skills', { name: 'Other', source: 'lightcast', externalId: 'uri:1' }).expect(201);
  });

  it('answers 404 for a groupId the organisation does not have, or a malformed one', async () => {
    const other = await createTenant(suite.app);
    const foreign = await apiClient(
      () => suite.app,
      () => other,
    )
      .post<SkillGroupResponse>('/skill-groups', { name: 'theirs' })
      .expect(201);
    await post('/skills', { name: 'Mine', groupIds: [foreign.body.data.id] }).expect(404);
    await post('/skills', { name: 'Mine', groupIds: ['nope'] }).expect(404);
    const skill = await createSkill(suite.app, suite.tenant);
    await patch(`/skills/${skill.id}`, { groupIds: [UNKNOWN_ID] }).expect(404);
    await get(`/skills?groupId=${foreign.body.data.id}`).expect(404);
  });

  it('finds a skill by a part of an alias, not of a hidden alias', async () => {
    const skill = await createSkill(suite.app, suite.tenant, {
      name: 'JavaScript',
      aliases: ['ECMAScript'],
      hiddenAliases: ['jawaskript'],
    });
    await createSkill(suite.app, suite.tenant, { name: 'Python' });
    const byAlias = await get<SkillResponse[]>('/skills?search=cmasc').expect(200);
    expect(byAlias.body.data.map(({ id }) => id)).toEqual([skill.id]);
    expect(byAlias.body.meta).toMatchObject({ total: 1 });
    expect((await get<SkillResponse[]>('/skills?search=wasKr').expect(200)).body.data).toEqual([]);
  });

  it('creates and changes aliases and groups through POST /skills/bulk, refusing an alias that is a name per item', async () => {
    const web = await group('web');
    const typescript = await createSkill(suite.app, suite.tenant, { name: 'TypeScript' });
    const response = await post('/skills/bulk', {
      items: [
        { name: 'JavaScript', aliases: ['JS'], groupIds: [web.id], source: 'esco', externalId: 'js' },
        { name: 'TypeScript', hiddenAliases: ['Typescrpit'] },
        { name: 'CoffeeScript', aliases: ['typescript'] },
        { name: 'Dart', groupIds: [UNKNOWN_ID] },
      ],
    }).expect(200);
    expect(response.body.data.map((item: { status: string }) => item.status)).toEqual([
      'created',
      'updated',
      'failed',
      'failed',
    ]);
    expect(response.body.data[2].error).toMatchObject({ code: 'CONFLICT' });
    expect(response.body.data[3].error).toMatchObject({ code: 'NOT_FOUND' });
    const listed = (await get<SkillResponse[]>('/skills').expect(200)).body.data;
    expect(listed.find((skill) => skill.name === 'JavaScript')).toMatchObject({
      aliases: ['JS'],
      groups: [{ id: web.id, name: 'web' }],
      source: 'esco',
      externalId: 'js',
    });
    expect(listed.find((skill) => skill.id === typescript.id)).toMatchObject({ hiddenAliases: ['Typescrpit'] });
  });
});
