/** A skill a position requires, as the gap is computed against it. */
export interface RequiredSkill {
  skillId: string;
  skillName: string;
  minimumRating: number;
}

export interface SkillGap extends RequiredSkill {
  /** The candidate's latest rating score on the skill; null when never rated. */
  currentScore: number | null;
  gap: number;
}

/** How far a score falls short of a minimum; no rating counts as 0, and exceeding the minimum is no gap. */
export function gapToMinimum(minimumRating: number, currentScore: number | null): number {
  return Math.max(0, minimumRating - (currentScore ?? 0));
}

/** One row per required skill, in the order given, for a candidate whose latest scores are keyed by skill id. */
export function computeSkillsGap(
  requiredSkills: readonly RequiredSkill[],
  latestScoreBySkillId: ReadonlyMap<string, number>,
): SkillGap[] {
  return requiredSkills.map(({ skillId, skillName, minimumRating }) => {
    const currentScore = latestScoreBySkillId.get(skillId) ?? null;
    return { skillId, skillName, minimumRating, currentScore, gap: gapToMinimum(minimumRating, currentScore) };
  });
}

/** gapToMinimum in SQL, over two column expressions, so the candidates' ranking orders by the very gap shown. */
export function gapToMinimumSql(minimumRating: string, currentScore: string): string {
  return `GREATEST(0, ${minimumRating} - COALESCE(${currentScore}, 0))`;
}

/** A candidate's totals over its skills gap: the sum of the gaps, and how many required skills have none. */
export interface SkillsGapTotals {
  totalGap: number;
  matchedSkills: number;
}

export function summariseSkillsGap(skillsGap: readonly SkillGap[]): SkillsGapTotals {
  return {
    totalGap: skillsGap.reduce((sum, { gap }) => sum + gap, 0),
    matchedSkills: skillsGap.filter(({ gap }) => gap === 0).length,
  };
}
