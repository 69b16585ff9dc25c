import { DataSource } from 'typeorm';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { CatalogueNames } from '../../src/skills/resolve/catalogue-names';
import { SkillResolutionResponse } from '../../src/skills/resolve/resolve-skills.response';
import { SkillNamesRepository } from '../../src/skills/resolve/skill-names.repository';
import { apiClient } from '../support/api-client';
import { createTenant } from '../support/app';
import { createSkill } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

describe('POST /skills/resolve', () => {
  const suite = useTestApp();
  const { post } = suite.api;

  const resolve = async (names: string[]) =>
    (await post<SkillResolutionResponse[]>('/skills/resolve', { names }).expect(200)).body.data;

  /** Another organisation resolves "Haskell", which this one has: it finds nothing. */
  const expectHaskellUnknownElsewhere = async () => {
    const other = await createTenant(suite.app);
    const foreign = await apiClient(
      () => suite.app,
      () => other,
    )
      .post<SkillResolutionResponse[]>('/skills/resolve', { names: ['Haskell'] })
      .expect(200);
    expect(foreign.body.data).toEqual([{ name: 'Haskell', match: 'none', skill: null, candidates: [] }]);
  };

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

  describe('from the names held in memory', () => {
    const catalogue = () => suite.app.get(CatalogueNames);
    const sql = (text: string, values: unknown[]) => suite.app.get(DataSource).query(text, values);
    /** Resolves until this instance holds the organisation's names at the database's version. */
    const hold = async (names: string[]) => {
      for (let attempt = 0; attempt < 3; attempt++) {
        await resolve(names);
        await catalogue().settled();
      }
      expect(await catalogue().current(suite.tenant.organisationId)).toBeDefined();
    };

    it('answers what the database answers', async () => {
      await createSkill(suite.app, suite.tenant, {
        name: 'JavaScript',
        aliases: ['JS'],
        hiddenAliases: ['Jawascript'],
      });
      await createSkill(suite.app, suite.tenant, { name: 'Java', aliases: ['JVM'] });
      await createSkill(suite.app, suite.tenant, { name: 'Kotlin', aliases: ['jvm'], hiddenAliases: ['KT'] });
      await createSkill(suite.app, suite.tenant, { name: 'Python', hiddenAliases: ['JS', 'py'] });
      // Equal scores: by name in code point order, and a name before an alias of the same skill.
      for (const name of ['ruby a', 'Ruby C', 'RUBY D']) await createSkill(suite.app, suite.tenant, { name });
      const rubyB = await createSkill(suite.app, suite.tenant, { name: 'Ruby B', aliases: ['Ruby+B'] });
      const names = ['javascript', 'JS', 'jawascript', 'JVM', 'py', 'Kotlin', 'Cobol', 'Pythn', 'java ', 'rubi'];
      const fromDatabase = await resolve(names);
      await hold(names);
      expect(await resolve(names)).toEqual(fromDatabase);
      expect(fromDatabase[9].candidates.map(({ name, matchedOn }) => [name, matchedOn])).toEqual([
        ['RUBY D', 'name'],
        ['Ruby B', 'name'],
        ['Ruby C', 'name'],
      ]);
      expect(fromDatabase[9].candidates[1].id).toBe(rubyB.id);
      expect(fromDatabase.map(({ match }) => match)).toEqual([
        'name',
        'alias',
        'hiddenAlias',
        'ambiguous',
        'hiddenAlias',
        'name',
        'none',
        'none',
        'none',
        'none',
      ]);
    });

    it('are let go as soon as a change commits, whoever makes it', async () => {
      const erlang = await createSkill(suite.app, suite.tenant, { name: 'Erlang', aliases: ['OTP'] });
      await hold(['Erlang']);
      const version = async () =>
        Number(
          (
            await sql(`SELECT version FROM catalogue_versions WHERE organisation_id = $1`, [
              suite.tenant.organisationId,
            ])
          )[0].version,
        );
      const before = await version();
      // As another instance would: straight to the database, in one transaction of several rows.
      await suite.app.get(DataSource).transaction(async (manager) => {
        await manager.query(`UPDATE skills SET name = 'Elixir', name_key = 'elixir' WHERE id = $1`, [erlang.id]);
        await manager.query(
          `INSERT INTO skill_aliases (organisation_id, skill_id, kind, position, name, name_key)
           VALUES ($1, $2, 'alias', 1, 'BEAM', 'beam'), ($1, $2, 'hidden', 0, 'Exlir', 'exlir')`,
          [suite.tenant.organisationId, erlang.id],
        );
      });
      expect(await version()).toBe(before + 1);
      const elixir = { id: erlang.id, name: 'Elixir' };
      expect(await resolve(['Erlang', 'elixir', 'beam', 'exlir', 'otp'])).toEqual([
        { name: 'Erlang', match: 'none', skill: null, candidates: [] },
        { name: 'elixir', match: 'name', skill: elixir, candidates: [] },
        { name: 'beam', match: 'alias', skill: elixir, candidates: [] },
        { name: 'exlir', match: 'hiddenAlias', skill: elixir, candidates: [] },
        { name: 'otp', match: 'alias', skill: elixir, candidates: [] },
      ]);
      await hold(['Elixir']);
      await sql(`DELETE FROM skill_aliases WHERE skill_id = $1 AND name_key = 'otp'`, [erlang.id]);
      expect((await resolve(['otp']))[0].match).toBe('none');
      await hold(['Elixir']);
      await sql(`DELETE FROM skills WHERE id = $1`, [erlang.id]);
      expect((await resolve(['Elixir']))[0]).toMatchObject({ match: 'none', skill: null });
    });

    it('suggest for many names that match nothing at once, read and indexed then, not probed name by name', async () => {
      const haskell = await createSkill(suite.app, suite.tenant, { name: 'Haskell', aliases: ['GHC'] });
      const suggestions = jest.spyOn(suite.app.get(SkillNamesRepository), 'suggestions');
      const answers = await resolve(Array.from({ length: 1000 }, (_v, index) => `haskel ${index}`));
      expect(suggestions).not.toHaveBeenCalled();
      suggestions.mockRestore();
      expect(answers.filter(({ match }) => match !== 'none')).toEqual([]);
      expect(answers[7]).toEqual({
        name: 'haskel 7',
        match: 'none',
        skill: null,
        candidates: [{ id: haskell.id, name: 'Haskell', matchedOn: 'name', score: 0.545 }],
      });
    });

    it('never answer another organisation', async () => {
      await createSkill(suite.app, suite.tenant, { name: 'Haskell' });
      await hold(['Haskell']);
      await expectHaskellUnknownElsewhere();
    });
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
    await expectHaskellUnknownElsewhere();
  });
});
