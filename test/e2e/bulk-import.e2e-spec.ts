import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run-cli';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { RatingResponse } from '../../src/ratings/dto/rating.response';
import { SkillResponse } from '../../src/skills/dto/skill.response';
import { dataSourceOf, testConfig } from '../support/app';
import { useTestApp } from '../support/use-test-app';

const directory = mkdtempSync(join(tmpdir(), 'bulk-import-'));

function file(name: string, content: string): string {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
}

/** Runs a command in-process and captures what it prints and the progress it reports. */
async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const progress: string[] = [];
  const code = await runCli(
    argv,
    {
      stdout: (chunk) => (stdout += chunk),
      stderr: (chunk) => (stderr += chunk),
      progress: (done, total) => progress.push(`${done}/${total}`),
    },
    testConfig(),
  );
  return { code, stdout, stderr, progress };
}

describe('employees, skills and ratings import commands', () => {
  const suite = useTestApp();
  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
  });

  const { get } = suite.api;

  it('imports employees from JSON in batches of 1,000, prints one JSON summary and writes the failures to a file', async () => {
    const items = Array.from({ length: 1203 }, (_item, index) => ({
      personnelNumber: `E-${index}`,
      firstName: 'Ada',
      lastName: 'Lovelace',
      businessEmail: `e-${index}@example.com`,
    }));
    items[1001].businessEmail = 'not an email';
    const path = file('employees.json', JSON.stringify(items));
    const run = await cli('employees', 'import', path, '--org', suite.tenant.organisationId, '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toEqual({
      created: 1202,
      updated: 0,
      unchanged: 0,
      failed: 1,
      failuresFile: `${path}.failures.json`,
    });
    expect(run.progress).toEqual(['0/1203', '1000/1203', '1203/1203']);
    expect(JSON.parse(readFileSync(`${path}.failures.json`, 'utf8'))).toEqual([
      {
        index: 1001,
        item: items[1001],
        error: {
          code: 'VALIDATION_ERROR',
          message: 'businessEmail must be an email',
          details: [{ field: 'businessEmail', message: 'businessEmail must be an email' }],
        },
      },
    ]);
    expect((await get<EmployeeResponse[]>('/employees').expect(200)).body.meta.total).toBe(1202);
    // The command runs an application of its own: its events are found where every event is recorded.
    const [{ count }] = await dataSourceOf(suite.app).query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM events WHERE organisation_id = $1 AND event = 'employee.created'`,
      [suite.tenant.organisationId],
    );
    expect(count).toBe(1202);

    const again = await cli('employees', 'import', path, '--org', suite.tenant.organisationId, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 1202, failed: 1 });
  });

  it('imports skills and then ratings from CSV files with a header of the JSON field names', async () => {
    const employees = file(
      'people.json',
      JSON.stringify([
        { personnelNumber: 'P-1', firstName: 'Grace', lastName: 'Hopper', businessEmail: 'g@example.com' },
      ]),
    );
    expect((await cli('employees', 'import', employees, '--org', suite.tenant.organisationId)).code).toBe(0);
    const skills = file(
      'skills.csv',
      'name,description,ratingScaleMin,ratingScaleMax\nCOBOL,"Old, but gold",1,10\nFortran,,,\n',
    );
    const skillRun = await cli('skills', 'import', skills, '--org', suite.tenant.organisationId);
    expect(skillRun.code).toBe(0);
    expect(skillRun.stdout).toBe('Imported skills: 2 created, 0 updated, 0 unchanged, 0 failed\n');
    const catalogue = (await get<SkillResponse[]>('/skills').expect(200)).body.data;
    expect(catalogue).toEqual([
      expect.objectContaining({ name: 'COBOL', description: 'Old, but gold', ratingScaleMin: 1, ratingScaleMax: 10 }),
      expect.objectContaining({ name: 'Fortran', description: null, ratingScaleMin: 0, ratingScaleMax: 5 }),
    ]);

    const ratings = file(
      'ratings.csv',
      'personnelNumber,skillName,score,ratingType,comment\nP-1,cobol,9,MANAGER_EVALUATION,"said ""fluent"""\nP-1,fortran,9,SELF_ASSESMENT,\n',
    );
    const failures = join(directory, 'rating-failures.json');
    const ratingRun = await cli(
      'ratings',
      'import',
      ratings,
      '--org',
      suite.tenant.organisationId,
      '--failures',
      failures,
      '--json',
    );
    expect(JSON.parse(ratingRun.stdout)).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      failed: 1,
      failuresFile: failures,
    });
    expect(JSON.parse(readFileSync(failures, 'utf8'))).toEqual([
      {
        index: 1,
        item: { personnelNumber: 'P-1', skillName: 'fortran', score: 9, ratingType: 'SELF_ASSESMENT' },
        error: expect.objectContaining({
          code: 'VALIDATION_ERROR',
          message: expect.stringContaining('between 0 and 5'),
        }),
      },
    ]);
    const [person] = (await get<EmployeeResponse[]>('/employees').expect(200)).body.data;
    const rated = (await get<RatingResponse[]>(`/employees/${person.id}/ratings`).expect(200)).body.data;
    expect(rated).toEqual([expect.objectContaining({ skillName: 'COBOL', score: 9, comment: 'said "fluent"' })]);
  });

  it('writes no failures file when nothing failed, and names an unknown organisation', async () => {
    const path = file('clean.json', JSON.stringify([{ name: 'Rust' }]));
    const run = await cli('skills', 'import', path, '--org', suite.tenant.organisationId, '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({ created: 1, failed: 0, failuresFile: null });
    expect(existsSync(`${path}.failures.json`)).toBe(false);
    const unknown = await cli('skills', 'import', path, '--org', 'No Such Org', '--json');
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({
      error: { code: 'NOT_FOUND', message: expect.stringContaining('No Such Org') },
    });
  });
});
