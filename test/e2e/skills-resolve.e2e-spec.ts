import { ApiKeysService } from '../../src/auth/api-keys.service';
import { SkillResolutionResponse } from '../../src/skills/resolve/resolve-skills.response';
import { apiClient } from '../support/api-client';
import { createTenant } from '../support/app';
import { createSkill } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

describe('POST /skills/resolve', () => {
  const suite = useTestApp();
  const { post } = suite.api;

  const resolve = async (names: string[]) =>
    (await post<SkillResolutionResponse[]>('/skills/resolve', { names }).expect(200)).body.data;

  it('answers name, alias, hiddenAlias, ambiguous and none (with suggestions), in input order, for 1,000 names', async () => {
    const javascript = await createSkill(suite.app, suite.tenant, {
      name: 'JavaScript',
      aliases: ['JS', 'ECMAScript'],
      hiddenAliases: ['Jawascript'],
    });
    const java = await createSkill(suite.app, suite.tenant, { name: 'Java', aliases: ['JVM'] });
    const kotlin = await createSkill(suite.app, suite.tenant, { name: 'Kotlin', aliases: ['jvm'] });
    const python = await createSkill(suite.app, suite.tenant, { name: 'Python', hiddenAliases: ['JS'] });
    const asked = ['javascript ', 'ecmascript', 'JAWASCRIPT', 'jvm', 'Pythn', 'Cobol', 'js', 'Python'];
    const names = Array.from({ length: 1000 }, (_v, index) => asked[index % asked.length]);
    const answered = await resolve(names);
    expect(answered).toHaveLength(1000);
    expect(answered.map(({ name }) => name)).toEqual(names);
    const ref = ({ id, name }: { id: string; name: string }) => ({ id, name });
    expect(answered.slice(0, asked.length)).toEqual([
      { name: 'javascript ', match: 'none', skill: null, candidates: expect.any(Array) },
      { name: 'ecmascript', match: 'alias', skill: ref(javascript), candidates: [] },
      { name: 'JAWASCRIPT', match: 'hiddenAlias', skill: ref(javascript), candidates: [] },
      {
        name: 'jvm',
        match: 'ambiguous',
        skill: null,
        candidates: [
          { ...ref(java), matchedOn: 'alias', score: 1 },
          { ...ref(kotlin), matchedOn: 'alias', score: 1 },
        ],
      },
      {
        name: 'Pythn',
        match: 'none',
        skill: null,
        candidates: [{ ...ref(python), matchedOn: 'name', score: expect.any(Number) }],
      },
      { name: 'Cobol', match: 'none', skill: null, candidates: [] },
      // An alias wins over a hidden alias another skill has.
      { name: 'js', match: 'alias', skill: ref(javascript), candidates: [] },
      { name: 'Python', match: 'name', skill: ref(python), candidates: [] },
    ]);
    // "javascript " keeps its trailing space as one space, so it is only like JavaScript.
    expect(answered[0].candidates[0]).toMatchObject({ ...ref(javascript), matchedOn: 'name' });
    const scores = answered.flatMap(({ candidates }) => candidates.map(({ score }) => score));
    expect(scores.every((score) => score >= 0.3 && score <= 1)).toBe(true);
  });

  it('suggests at most 3 skills, best first, never taking one for a match', async () => {
    for (const name of ['Project management', 'Project planning', 'Product management', 'Programme management']) {
      await createSkill(suite.app, suite.tenant, { name });
    }
    const [answer] = await resolve(['project managment']);
    expect(answer.match).toBe('none');
    expect(answer.candidates).toHaveLength(3);
    expect(answer.candidates[0].name).toBe('Project management');
    const scores = answer.candidates.map(({ score }) => score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it.each([
    ['no names', { names: [] }],
    ['1,001 names', { names: Array.from({ length: 1001 }, () => 'x') }],
    ['an empty name', { names: [''] }],
    ['a name over 200', { names: ['x'.repeat(201)] }],
    ['names not strings', { names: [1] }],
    ['another field', { names: ['x'], limit: 3 }],
  ])('rejects %s with 400', async (_case, body) => {
    const response = await post('/skills/resolve', body).expect(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
  });

  it.each([
    ['names not an array', { names: 'Java' }, 'names must be an array'],
    ['an empty name among long ones', { names: ['x'.repeat(201), ''] }, 'each value in names should not be empty'],
    ['a number among long names', { names: ['x'.repeat(201), 1] }, 'each value in names must be a string'],
    [
      'a name over 200',
      { names: ['Java', 'x'.repeat(201)] },
      'each value in names must be shorter than or equal to 200 characters',
    ],
  ])('answers %s with the one message docs/api-decisions.md gives', async (_case, body, message) => {
    const response = await post('/skills/resolve', body).expect(400);
    expect(response.body.error.details).toEqual([{ field: 'names', message }]);
  });

  it('needs only the read scope, and sees only the organisation’s skills', async () => {
    await createSkill(suite.app, suite.tenant, { name: 'Haskell' });
    const reader = await suite.app.get(ApiKeysService).create(suite.tenant.organisationId, { scopes: ['read'] });
    const asReader = apiClient(
      () => suite.app,
      () => ({ ...suite.tenant, key: reader.key, keyId: reader.id, bearer: `Bearer ${reader.key}` }),
    );
    const read = await asReader.post<SkillResolutionResponse[]>('/skills/resolve', { names: ['haskell'] }).expect(200);
    expect(read.body.data[0].match).toBe('name');
    const other = await createTenant(suite.app);
    const foreign = await apiClient(
      () => suite.app,
      () => other,
    )
      .post<SkillResolutionResponse[]>('/skills/resolve', { names: ['Haskell'] })
      .expect(200);
    expect(foreign.body.data).toEqual([{ name: 'Haskell', match: 'none', skill: null, candidates: [] }]);
  });
});
