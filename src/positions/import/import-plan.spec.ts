import { PositionReplacement } from '../entities/position-replacement.entity';
import { PositionRequiredSkill } from '../entities/position-required-skill.entity';
import { Position } from '../entities/position.entity';
import { DesiredPosition, diffReplacements, isUnchanged, planImport, StoredPosition } from './import-plan';

const desired: DesiredPosition = {
  ref: 'FIN-1',
  name: 'Controller',
  description: null,
  department: 'Finance',
  status: 'OPEN',
  mustBeFilledBy: new Date('2026-01-31T00:00:00.000Z'),
  replacesEmployeeId: 'emp-1',
  requiredSkills: [
    { skillId: 'skill-a', minimumRating: 4 },
    { skillId: 'skill-b', minimumRating: 2 },
  ],
  replacements: [{ candidateEmployeeId: 'emp-2', readyAt: new Date('2026-03-01T00:00:00.000Z'), status: 'PROPOSED' }],
};

function storedFrom(wanted: DesiredPosition): StoredPosition {
  const { requiredSkills, replacements, ...columns } = wanted;
  return {
    position: Object.assign(new Position(), { id: 'pos-1', organisationId: 'org', ...columns }),
    // Stored in another order, with fresh Date instances: neither is a change.
    requiredSkills: [...requiredSkills]
      .reverse()
      .map((skill) => Object.assign(new PositionRequiredSkill(), { positionId: 'pos-1', ...skill })),
    replacements: replacements.map((replacement, index) =>
      Object.assign(new PositionReplacement(), {
        id: `rep-${index}`,
        positionId: 'pos-1',
        ...replacement,
        readyAt: new Date(replacement.readyAt.getTime()),
      }),
    ),
  };
}

describe('isUnchanged', () => {
  const stored = storedFrom({ ...desired, mustBeFilledBy: new Date(desired.mustBeFilledBy!.getTime()) });

  it('sees no change when everything matches', () => {
    expect(isUnchanged(stored, desired)).toBe(true);
  });

  it.each<[string, Partial<DesiredPosition>]>([
    ['name', { name: 'Head Controller' }],
    ['description', { description: 'New' }],
    ['department cleared', { department: null }],
    ['status', { status: 'FILLED' }],
    ['mustBeFilledBy', { mustBeFilledBy: new Date('2026-02-01T00:00:00.000Z') }],
    ['mustBeFilledBy cleared', { mustBeFilledBy: null }],
    ['replaced person', { replacesEmployeeId: 'emp-9' }],
    [
      'a minimum rating',
      {
        requiredSkills: [
          { skillId: 'skill-a', minimumRating: 5 },
          { skillId: 'skill-b', minimumRating: 2 },
        ],
      },
    ],
    ['a removed skill', { requiredSkills: [{ skillId: 'skill-a', minimumRating: 4 }] }],
    [
      'a swapped skill',
      {
        requiredSkills: [
          { skillId: 'skill-a', minimumRating: 4 },
          { skillId: 'skill-c', minimumRating: 2 },
        ],
      },
    ],
    ['a replacement status', { replacements: [{ ...desired.replacements[0], status: 'APPROVED' }] }],
    ['a replacement readyAt', { replacements: [{ ...desired.replacements[0], readyAt: new Date('2026-03-02') }] }],
    ['another candidate', { replacements: [{ ...desired.replacements[0], candidateEmployeeId: 'emp-3' }] }],
    ['no replacements', { replacements: [] }],
  ])('sees a change in %s', (_case, change) => {
    expect(isUnchanged(stored, { ...desired, ...change })).toBe(false);
  });
});

describe('planImport', () => {
  it('creates unknown refs, updates changed ones and leaves the rest, in file order', () => {
    const same = storedFrom(desired);
    const changed = storedFrom({ ...desired, ref: 'FIN-2' });
    const plan = planImport(
      [{ ...desired, ref: 'NEW' }, { ...desired, ref: 'FIN-2', status: 'CLOSED' }, desired],
      new Map([
        ['FIN-1', same],
        ['FIN-2', changed],
      ]),
    );
    expect(plan.map((each) => each.action)).toEqual(['create', 'update', 'unchanged']);
    expect(plan[1]).toMatchObject({ action: 'update', stored: changed });
  });
});

describe('diffReplacements', () => {
  const stored = [
    Object.assign(new PositionReplacement(), {
      id: 'keep',
      candidateEmployeeId: 'a',
      readyAt: new Date('2026-01-01'),
      status: 'PROPOSED',
    }),
    Object.assign(new PositionReplacement(), {
      id: 'change',
      candidateEmployeeId: 'b',
      readyAt: new Date('2026-01-01'),
      status: 'PROPOSED',
    }),
    Object.assign(new PositionReplacement(), {
      id: 'drop',
      candidateEmployeeId: 'c',
      readyAt: new Date('2026-01-01'),
      status: 'PROPOSED',
    }),
  ];

  it('keeps matching candidates by id, updates changed ones, drops missing ones and adds new ones', () => {
    const changes = diffReplacements(stored, [
      { candidateEmployeeId: 'a', readyAt: new Date('2026-01-01'), status: 'PROPOSED' },
      { candidateEmployeeId: 'b', readyAt: new Date('2026-01-01'), status: 'REJECTED' },
      { candidateEmployeeId: 'd', readyAt: new Date('2026-05-01'), status: 'APPROVED' },
    ]);
    expect(changes).toEqual({
      insert: [{ candidateEmployeeId: 'd', readyAt: new Date('2026-05-01'), status: 'APPROVED' }],
      update: [{ id: 'change', readyAt: new Date('2026-01-01'), status: 'REJECTED' }],
      deleteIds: ['drop'],
    });
  });
});
