import { execFileSync } from 'node:child_process';
import { ValidationError } from '../../errors/errors';
import { Resolution } from '../../skills/resolve/skill-resolver';
import { parsePositionsFile } from './positions-file';
import {
  KnownReferences,
  referencedPersonnelNumbers,
  referencedSkillNames,
  resolveReferences,
} from './resolve-references';

const SQL = { id: 'skill-1', name: 'SQL', ratingScaleMin: 1, ratingScaleMax: 5 };
const resolvedTo = (name: string, skill: typeof SQL | null): Resolution => ({
  name,
  match: skill ? 'name' : 'none',
  skill: skill && { id: skill.id, name: skill.name },
  candidates: [],
});

const known: KnownReferences = {
  employeeIdByPersonnelNumber: new Map([
    ['P-1', 'employee-1'],
    ['P-2', 'employee-2'],
  ]),
  skillByName: new Map([
    ['Sql', resolvedTo('Sql', SQL)],
    ['SQL', resolvedTo('SQL', SQL)],
    ['COBOL', resolvedTo('COBOL', null)],
  ]),
  skillById: new Map([['skill-1', SQL]]),
};

const entry = {
  ref: 'R-1',
  name: 'Analyst',
  status: 'OPEN',
  mustBeFilledBy: '2026-03-01T09:00:00',
  replacesPersonnelNumber: 'P-1',
  requiredSkills: [{ skillName: 'Sql', minimumRating: 3 }],
  possibleReplacements: [{ candidatePersonnelNumber: 'P-2', readyAt: '2026-04-01', status: 'PROPOSED' }],
};

function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const entries = (...items: unknown[]) => parsePositionsFile(JSON.stringify(items));

describe('resolveReferences', () => {
  it('names each referenced personnelNumber and skill name once', () => {
    const file = entries(entry, { ...entry, ref: 'R-2', replacesPersonnelNumber: 'P-2' });
    expect(referencedPersonnelNumbers(file)).toEqual(['P-1', 'P-2']);
    expect(referencedSkillNames(file)).toEqual(['Sql']);
  });

  it('turns personnelNumbers and skill names into ids, and reads a date-time without offset as UTC', () => {
    expect(resolveReferences(entries(entry), known)).toEqual([
      {
        ref: 'R-1',
        name: 'Analyst',
        description: null,
        department: null,
        status: 'OPEN',
        mustBeFilledBy: new Date('2026-03-01T09:00:00.000Z'),
        replacesEmployeeId: 'employee-1',
        requiredSkills: [{ skillId: 'skill-1', minimumRating: 3 }],
        replacements: [
          { candidateEmployeeId: 'employee-2', readyAt: new Date('2026-04-01T00:00:00.000Z'), status: 'PROPOSED' },
        ],
      },
    ]);
  });

  it('names every unknown reference and every minimumRating outside its scale', () => {
    const file = entries({
      ...entry,
      replacesPersonnelNumber: 'P-9',
      requiredSkills: [
        { skillName: 'COBOL', minimumRating: 1 },
        { skillName: 'SQL', minimumRating: 6 },
      ],
    });
    const error = thrownBy(() => resolveReferences(file, known));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details?.map((each) => each.field)).toEqual([
      '[0].replacesPersonnelNumber',
      '[0].requiredSkills[0].skillName',
      '[0].requiredSkills[1].minimumRating',
    ]);
  });

  // The server's time zone must not matter: run the import's parsing and resolution where local time is UTC+1.
  it('reads a date-time without offset as UTC when the server runs in Europe/Berlin', () => {
    const script = `
      const { parsePositionsFile } = require('./src/positions/import/positions-file');
      const { resolveReferences } = require('./src/positions/import/resolve-references');
      const [entry] = JSON.parse(process.argv[1]);
      const known = {
        employeeIdByPersonnelNumber: new Map([['P-1', 'employee-1'], ['P-2', 'employee-2']]),
        skillByName: new Map([['Sql', { name: 'Sql', match: 'name', skill: { id: 'skill-1', name: 'SQL' }, candidates: [] }]]),
        skillById: new Map([['skill-1', { id: 'skill-1', name: 'SQL', ratingScaleMin: 1, ratingScaleMax: 5 }]]),
      };
      const [position] = resolveReferences(parsePositionsFile(JSON.stringify([entry])), known);
      process.stdout.write(JSON.stringify([position.mustBeFilledBy, position.replacements[0].readyAt, new Date(2026, 2, 1).getTimezoneOffset()]));
    `;
    const output = execFileSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-e', script, JSON.stringify([entry])],
      { cwd: `${__dirname}/../../..`, env: { ...process.env, TZ: 'Europe/Berlin' }, encoding: 'utf8' },
    );
    expect(JSON.parse(output)).toEqual(['2026-03-01T09:00:00.000Z', '2026-04-01T00:00:00.000Z', -60]);
  });
});
