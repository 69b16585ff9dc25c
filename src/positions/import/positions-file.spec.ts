import { ValidationError } from '../../errors/errors';
import { parsePositionsFile } from './positions-file';

const valid = {
  ref: 'FIN-1',
  name: 'Controller',
  description: 'Keeps the books',
  department: 'Finance',
  status: 'OPEN',
  mustBeFilledBy: '2026-01-31',
  replacesPersonnelNumber: 'P-1',
  requiredSkills: [{ skillName: 'Accounting', minimumRating: 4 }],
  possibleReplacements: [{ candidatePersonnelNumber: 'P-2', readyAt: '2026-01-31T09:00:00+02:00', status: 'PROPOSED' }],
};

function problemsOf(file: unknown): { message: string; fields: string[] } {
  try {
    parsePositionsFile(typeof file === 'string' ? file : JSON.stringify(file));
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const { message, details = [] } = error as ValidationError;
    return { message, fields: details.map((detail) => detail.field) };
  }
  throw new Error('expected the file to be rejected');
}

describe('parsePositionsFile', () => {
  it('accepts a full entry and one with only the required fields', () => {
    const minimal = { ref: 'FIN-2', name: 'Clerk', status: 'CLOSED', requiredSkills: [], possibleReplacements: [] };
    const entries = parsePositionsFile(JSON.stringify([valid, minimal]));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject(valid);
    expect(entries[1]).toMatchObject(minimal);
  });

  it('accepts null for the optional fields', () => {
    const entry = {
      ...valid,
      description: null,
      department: null,
      mustBeFilledBy: null,
      replacesPersonnelNumber: null,
    };
    expect(parsePositionsFile(JSON.stringify([entry]))).toHaveLength(1);
  });

  it('rejects text that is not JSON', () => {
    expect(problemsOf('[{"ref": ').message).toMatch(/not valid JSON/);
  });

  it('rejects JSON that is not an array', () => {
    expect(problemsOf({ positions: [valid] }).message).toMatch(/must hold a JSON array/);
  });

  it('names an element that is not an object', () => {
    expect(problemsOf([valid, 'FIN-2']).fields).toEqual(['[1]']);
  });

  it.each([
    ['status', { status: 'open' }, '[0].status', /\[0\]\.status must be one of OPEN, IN_PROGRESS, FILLED, CLOSED/],
    ['mustBeFilledBy', { mustBeFilledBy: '2026-13-01' }, '[0].mustBeFilledBy', /ISO 8601/],
    ['week dates', { mustBeFilledBy: '2026-W05' }, '[0].mustBeFilledBy', /ISO 8601/],
    ['a missing name', { name: undefined }, '[0].name', /name/],
    ['an empty ref', { ref: '' }, '[0].ref', /ref should not be empty/],
    [
      'a missing requiredSkills',
      { requiredSkills: undefined },
      '[0].requiredSkills',
      /requiredSkills must be an array/,
    ],
    ['an unknown field', { salary: 1 }, '[0].salary', /salary should not exist/],
    ['a long name', { name: 'x'.repeat(201) }, '[0].name', /200/],
    [
      'a fractional minimumRating',
      { requiredSkills: [{ skillName: 'Accounting', minimumRating: 2.5 }] },
      '[0].requiredSkills[0].minimumRating',
      /\[0\]\.requiredSkills\[0\]\.minimumRating must be an integer/,
    ],
    [
      'a replacement status',
      { possibleReplacements: [{ candidatePersonnelNumber: 'P-2', readyAt: '2026-01-01', status: 'MAYBE' }] },
      '[0].possibleReplacements[0].status',
      /PROPOSED, APPROVED, REJECTED/,
    ],
    [
      'a replacement readyAt',
      { possibleReplacements: [{ candidatePersonnelNumber: 'P-2', readyAt: 'soon', status: 'PROPOSED' }] },
      '[0].possibleReplacements[0].readyAt',
      /readyAt must be an ISO 8601 date or date-time/,
    ],
  ])('rejects %s and names the field', (_case, change, field, message) => {
    const problems = problemsOf([{ ...valid, ...change }]);
    expect(problems.fields).toEqual([field]);
    expect(problems.message).toMatch(message);
  });

  it('names every invalid entry, not only the first', () => {
    const problems = problemsOf([{ ...valid, status: 'X' }, valid, { ...valid, ref: 'FIN-3', readyAt: 1 }]);
    expect(problems.fields).toEqual(['[0].status', '[2].readyAt']);
  });

  it('rejects a ref that appears twice', () => {
    const problems = problemsOf([valid, { ...valid, name: 'Other' }]);
    expect(problems.fields).toEqual(['[1].ref']);
    expect(problems.message).toMatch(/repeats ref "FIN-1" of \[0\]/);
  });

  it('rejects a skill required twice, whatever its case', () => {
    const requiredSkills = [
      { skillName: 'Accounting', minimumRating: 1 },
      { skillName: 'ACCOUNTING', minimumRating: 2 },
    ];
    expect(problemsOf([{ ...valid, requiredSkills }]).fields).toEqual(['[0].requiredSkills[1].skillName']);
  });

  it('rejects a candidate proposed twice for one position', () => {
    const replacement = valid.possibleReplacements[0];
    const problems = problemsOf([
      { ...valid, possibleReplacements: [replacement, { ...replacement, status: 'APPROVED' }] },
    ]);
    expect(problems.fields).toEqual(['[0].possibleReplacements[1].candidatePersonnelNumber']);
  });

  it('lists the first 20 problems in the message and counts the rest', () => {
    const file = Array.from({ length: 25 }, (_, index) => ({ ...valid, ref: `R-${index}`, status: 'X' }));
    const problems = problemsOf(file);
    expect(problems.fields).toHaveLength(25);
    expect(problems.message).toMatch(/; and 5 more$/);
  });
});
