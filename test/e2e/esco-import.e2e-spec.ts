import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { runCli } from '../../src/cli/run-cli';
import { nameKey } from '../../src/names/name-key';
import { RatingResponse } from '../../src/ratings/dto/rating.response';
import { SkillDetailResponse, SkillResponse } from '../../src/skills/dto/skill.response';
import { EscoImportReport } from '../../src/skills/esco/esco-import.report';
import { SkillResolutionResponse } from '../../src/skills/resolve/resolve-skills.response';
import { SkillNamesRepository } from '../../src/skills/resolve/skill-names.repository';
import { asciiTrigrams, shownTrigram } from '../../src/skills/resolve/trigrams';
import { dataSourceOf, testConfig } from '../support/app';
import { createEmployee, createSkill, rate } from '../support/people.factory';
import { useTestApp } from '../support/use-test-app';

const FIXTURES = join(__dirname, '..', 'fixtures', 'esco');

interface EscoRow {
  conceptUri: string;
  preferredLabel: string;
  altLabels: string;
  conceptType: string;
  broaderType: string;
  broaderUri: string;
}

const rowsOf = (file: string): EscoRow[] => parse(readFileSync(join(FIXTURES, file)), { columns: true, bom: true });
const labels = (field: string) =>
  field
    .split('\n')
    .map((label) => label.trim())
    .filter((label) => label !== '');

/** Runs a command in-process, as an operator would, and captures what it prints. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (chunk: string) => (stdout += chunk), stderr: (chunk: string) => (stderr += chunk) };
  const code = await runCli(argv, io, testConfig());
  return { code, stdout, stderr };
}

describe('skills import-esco', () => {
  const suite = useTestApp();
  const { get, post } = suite.api;

  const importEsco = async (directory = FIXTURES, ...flags: string[]) => {
    const result = await cli(
      'skills',
      'import-esco',
      directory,
      '--org',
      suite.tenant.organisationId,
      '--json',
      ...flags,
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as EscoImportReport;
  };
  const eventCount = async () => {
    const [{ count }] = await dataSourceOf(suite.app).query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM events WHERE organisation_id = $1',
      [suite.tenant.organisationId],
    );
    return count;
  };
  const skillNamed = async (name: string) => {
    const listed = await get<SkillResponse[]>(`/skills?search=${encodeURIComponent(name)}&limit=100`).expect(200);
    return listed.body.data.find((skill) => skill.name === name)!;
  };

  it('imports the excerpt; a second run reports 0 created and 0 updated and records no event', async () => {
    const first = await importEsco();
    expect(first.skills).toMatchObject({ created: 352, updated: 0, unchanged: 0 });
    expect(first.groups).toMatchObject({ created: 298, updated: 0, unchanged: 0, skipped: 0 });
    expect(first.links.created).toBeGreaterThan(600);
    const events = await eventCount();
    expect(events).toBe(352 + 298);

    const second = await importEsco();
    expect(second.skills).toMatchObject({ created: 0, updated: 0, unchanged: 352 });
    expect(second.groups).toMatchObject({ created: 0, updated: 0, unchanged: 298 });
    expect(second.links).toMatchObject({ created: 0, unchanged: first.links.created });
    expect(await eventCount()).toBe(events);
  });

  it('resolves every altLabel to its skill, or to both skills as ambiguous when two share it', async () => {
    await importEsco();
    const skills = rowsOf('skills_en.csv');
    const nameOwner = new Map(skills.map((skill) => [nameKey(skill.preferredLabel), skill.preferredLabel]));
    const altOwners = new Map<string, Set<string>>();
    for (const skill of skills) {
      for (const label of labels(skill.altLabels)) {
        const owners = altOwners.get(nameKey(label)) ?? new Set<string>();
        owners.add(skill.preferredLabel);
        altOwners.set(nameKey(label), owners);
      }
    }
    const asked = skills.flatMap((skill) => labels(skill.altLabels).map((label) => ({ label, skill })));
    expect(asked.length).toBeGreaterThan(1000);
    const shared = [...altOwners.values()].filter((owners) => owners.size > 1);
    expect(shared.length).toBeGreaterThan(0);
    for (let start = 0; start < asked.length; start += 1000) {
      const slice = asked.slice(start, start + 1000);
      const response = await post<SkillResolutionResponse[]>('/skills/resolve', {
        names: slice.map(({ label }) => label),
      }).expect(200);
      response.body.data.forEach((answer, index) => {
        const { label, skill } = slice[index];
        const key = nameKey(label);
        const owners = [...altOwners.get(key)!];
        if (nameOwner.has(key)) expect(answer).toMatchObject({ match: 'name', skill: { name: nameOwner.get(key) } });
        else if (owners.length > 1) {
          expect(answer.match).toBe('ambiguous');
          expect(answer.candidates.map(({ name }) => name).sort()).toEqual(owners.sort());
        } else expect(answer).toMatchObject({ match: 'alias', skill: { name: skill.preferredLabel } });
      });
    }
  });

  it('puts a skill with two broader groups in both, and a skill below a skill in that one’s groups', async () => {
    await importEsco();
    const groupName = new Map(rowsOf('skillGroups_en.csv').map((group) => [group.conceptUri, group.preferredLabel]));
    const relations = rowsOf('broaderRelationsSkillPillar_en.csv');
    const broaderGroups = new Map<string, string[]>();
    for (const relation of relations) {
      if (relation.conceptType === 'KnowledgeSkillCompetence' && relation.broaderType === 'SkillGroup') {
        broaderGroups.set(relation.conceptUri, [
          ...(broaderGroups.get(relation.conceptUri) ?? []),
          relation.broaderUri,
        ]);
      }
    }
    const [uri, groups] = [...broaderGroups].find(([, each]) => each.length === 2)!;
    const label = rowsOf('skills_en.csv').find((skill) => skill.conceptUri === uri)!.preferredLabel;
    const skill = await skillNamed(label);
    expect(skill.groups.map(({ name }) => name).sort()).toEqual(groups.map((group) => groupName.get(group)).sort());
    // JavaScript lies below "web programming", a skill: it joins that skill's groups too.
    const javascript = await skillNamed('JavaScript');
    const web = await skillNamed('web programming');
    for (const group of web.groups) expect(javascript.groups).toContainEqual(group);
  });

  it('adopts a skill named like an ESCO label: it keeps its id and ratings and gains the ESCO fields', async () => {
    const before = await createSkill(suite.app, suite.tenant, { name: 'javascript', ratingScaleMax: 10 });
    const employee = await createEmployee(suite.app, suite.tenant);
    await rate(suite.app, suite.tenant, employee.id, before.id, { score: 7 });
    const report = await importEsco();
    expect(report.skills).toMatchObject({ created: 351, updated: 1 });
    const after = (await get<SkillDetailResponse>(`/skills/${before.id}`).expect(200)).body.data;
    expect(after).toMatchObject({
      id: before.id,
      name: 'JavaScript',
      source: 'esco',
      externalId: expect.stringMatching(/^http:\/\/data\.europa\.eu\/esco\/skill\//),
      ratingScaleMax: 10,
      employeeCount: 1,
    });
    expect(after.aliases.length).toBeGreaterThan(0);
    const ratings = await get<RatingResponse[]>(`/employees/${employee.id}/ratings`).expect(200);
    expect(ratings.body.data).toEqual([expect.objectContaining({ skillId: before.id, score: 7 })]);
  });

  describe('suggestions from the names an instance holds', () => {
    const resolve = async (names: string[]) =>
      (await post<SkillResolutionResponse[]>('/skills/resolve', { names }).expect(200)).body.data;
    /** Three misspellings of each label: a letter left out, two letters swapped, one letter changed. */
    const misspellings = (label: string) => {
      const at = Math.floor(label.length / 2);
      return [
        label.slice(0, at) + label.slice(at + 1),
        label.slice(0, 1) + label.charAt(2) + label.charAt(1) + label.slice(3),
        label.slice(0, at) + (label.charAt(at) === 'e' ? 'a' : 'e') + label.slice(at + 1),
      ];
    };
    const round = (score: number) => Math.round(score * 1000) / 1000;
    const escoLabels = () => rowsOf('skills_en.csv').flatMap((row) => [row.preferredLabel, ...labels(row.altLabels)]);

    it('are what the database suggests, on the whole excerpt', async () => {
      await importEsco();
      // Every 59th label's misspellings, names no pg_trgm score reaches, and keys the database's locale decides.
      const names = [
        ...escoLabels()
          .filter((_label, index) => index % 59 === 0)
          .flatMap(misspellings),
        'xqzv',
        'c++ programing',
        'prøject management',
        'управление проектами',
      ];
      const repository = suite.app.get(SkillNamesRepository);
      const suggestions = jest.spyOn(repository, 'suggestions');
      // Many names that match nothing: the names are read and indexed now, not probed one by one; only the keys
      // whose trigrams pg_trgm decides by the database's locale are asked of it.
      const answers = await resolve(names);
      expect(suggestions).toHaveBeenCalledTimes(1);
      expect(suggestions.mock.calls[0][1]).toEqual(['prøject management', 'управление проектами']);
      suggestions.mockRestore();

      const none = answers.filter(({ match }) => match === 'none');
      expect(none.length).toBeGreaterThan(80);
      const suggested = (count: number) => none.filter(({ candidates }) => candidates.length === count).length;
      expect(Math.min(suggested(0), suggested(1), suggested(2), suggested(3))).toBeGreaterThanOrEqual(3);
      const fromDatabase = await repository.suggestions(
        suite.tenant.organisationId,
        none.map(({ name }) => nameKey(name)),
      );
      for (const { name, candidates } of none) {
        const expected = fromDatabase
          .filter(({ key }) => key === nameKey(name))
          .map(({ id, name: skill, matchedOn, score }) => ({ id, name: skill, matchedOn, score: round(score) }));
        expect([name, candidates]).toEqual([name, expected]);
      }
    });

    it('read the trigrams of every ASCII key as pg_trgm does', async () => {
      const keys = [
        ...new Set(escoLabels().map((label) => nameKey(label))),
        'a',
        'ab',
        '1',
        'c++',
        ' .net',
        'x-ray 3d',
        'a_b',
        '',
        '+++',
      ];
      const asciiKeys = keys.filter((key) => asciiTrigrams(key) !== undefined);
      expect(asciiKeys.length).toBeGreaterThan(2000);
      const shown = await suite.app.get(SkillNamesRepository).trigramsOf(asciiKeys);
      expect(shown.length).toBe(asciiKeys.length);
      for (const { key, trigrams } of shown) {
        expect([key, new Set(asciiTrigrams(key))]).toEqual([key, new Set(trigrams.map(shownTrigram))]);
      }
      expect(asciiTrigrams('computer–telephone integration')).toBeUndefined();
    });
  });

  it('refuses a file with a broken quote, naming the file and line, and writes nothing', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'esco-broken-'));
    cpSync(FIXTURES, directory, { recursive: true });
    const groups = readFileSync(join(directory, 'skillGroups_en.csv'), 'utf8').split('\r\n');
    groups[3] = groups[3].replace(',', ',"');
    writeFileSync(join(directory, 'skillGroups_en.csv'), groups.join('\r\n'));
    const result = await cli('skills', 'import-esco', directory, '--org', suite.tenant.organisationId, '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^skillGroups_en\.csv: line \d+(, column \d+)?: .*nothing was written/),
    });
    expect((await get<SkillResponse[]>('/skills').expect(200)).body.data).toEqual([]);
    expect(await eventCount()).toBe(0);
  });

  it('writes nothing with --dry-run, reporting what it would do, and prints a summary without --json', async () => {
    const report = await importEsco(FIXTURES, '--dry-run');
    expect(report).toMatchObject({ dryRun: true, skills: { created: 352 }, groups: { created: 298 } });
    expect((await get<SkillResponse[]>('/skills').expect(200)).body.data).toEqual([]);
    const text = await cli('skills', 'import-esco', FIXTURES, '--org', suite.tenant.organisationId, '--dry-run');
    expect(text.stdout).toMatch(/^ESCO import \(dry run: nothing written\)\nSkills: 352 created, 0 updated/);
  });
});
