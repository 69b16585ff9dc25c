/**
 * SQL shared by every read of "an employee's skills and latest ratings" (the employee skills list, the
 * skills gap of a position). Tables are not modules: each feature's repository joins the tables it reads,
 * and these fragments keep the two rules those reads share in one place. EmployeeDetail reads through the
 * SQL function `employee_detail`, whose migration (1763764100000) spells both rules out: a migration stays
 * frozen, so a change to either rule also needs a migration that replaces that function.
 */

/**
 * The latest rating of the person skill aliased `personSkill`, for a LATERAL join. "Latest" (the newest
 * createdAt, then the larger id: UUID v7, so the later insert) has one definition: the ratings trigger that
 * keeps person_skills.latest_rating_id and latest_score (migration 1763763800000); readers take what it kept.
 */
export function latestRatingOf(personSkill: string, columns: string): string {
  return `SELECT ${columns} FROM ratings r WHERE r.id = ${personSkill}.latest_rating_id`;
}

/**
 * The one order of skills by name (docs/api-decisions.md): case-insensitive, the lower-cased names
 * compared code point by code point (COLLATE "C") so every server sorts alike whatever its locale,
 * then the skill id.
 */
export function bySkillName(name: string, id: string): string {
  return `lower(${name}) COLLATE "C", ${id}`;
}
