import { computeSkillsGap, gapToMinimum, RequiredSkill, summariseSkillsGap } from './skills-gap';

describe('gapToMinimum', () => {
  it.each([
    [4, 1, 3],
    [4, 4, 0],
    [3, 5, 0],
    [4, null, 4],
    [0, null, 0],
    [2, 0, 2],
    [-1, null, 0],
  ])('minimum %p with score %p is a gap of %p', (minimumRating, currentScore, gap) => {
    expect(gapToMinimum(minimumRating, currentScore)).toBe(gap);
  });
});

describe('computeSkillsGap', () => {
  const required: RequiredSkill[] = [
    { skillId: 'a', skillName: 'Accounting', minimumRating: 4 },
    { skillId: 'b', skillName: 'Budgeting', minimumRating: 2 },
    { skillId: 'c', skillName: 'Coaching', minimumRating: 3 },
  ];

  it('gives one row per required skill, in order, with the current score or null', () => {
    const gaps = computeSkillsGap(
      required,
      new Map([
        ['a', 1],
        ['b', 5],
      ]),
    );
    expect(gaps).toEqual([
      { skillId: 'a', skillName: 'Accounting', minimumRating: 4, currentScore: 1, gap: 3 },
      { skillId: 'b', skillName: 'Budgeting', minimumRating: 2, currentScore: 5, gap: 0 },
      { skillId: 'c', skillName: 'Coaching', minimumRating: 3, currentScore: null, gap: 3 },
    ]);
  });

  it('keeps a score of 0 as 0, not as a missing rating', () => {
    expect(computeSkillsGap([required[1]], new Map([['b', 0]]))).toEqual([
      { skillId: 'b', skillName: 'Budgeting', minimumRating: 2, currentScore: 0, gap: 2 },
    ]);
  });

  it('ignores scores on skills the position does not require', () => {
    expect(computeSkillsGap([required[2]], new Map([['z', 9]]))).toEqual([
      { skillId: 'c', skillName: 'Coaching', minimumRating: 3, currentScore: null, gap: 3 },
    ]);
  });

  it('is empty when the position requires no skill', () => {
    expect(computeSkillsGap([], new Map([['a', 3]]))).toEqual([]);
  });
});

describe('summariseSkillsGap', () => {
  it('sums the gaps and counts the rows without one', () => {
    const row = (gap: number, currentScore: number | null) => ({
      skillId: 'x',
      skillName: 'X',
      minimumRating: 3,
      currentScore,
      gap,
    });
    expect(summariseSkillsGap([row(0, 5), row(2, 1), row(3, null), row(0, 3)])).toEqual({
      totalGap: 5,
      matchedSkills: 2,
    });
  });

  it('answers zeros for a position without required skills', () => {
    expect(summariseSkillsGap([])).toEqual({ totalGap: 0, matchedSkills: 0 });
  });
});
