import { isUuid, newId } from '../database/uuid';
import { NotFoundError, ValidationError } from '../errors/errors';
import { changesBetween } from '../events/changes';
import { nameKey } from '../names/name-key';
import { VersionedKind } from '../versions/resource-versions';
import { CreateSkillDto } from './dto/create-skill.dto';
import { SkillGroupRef, SkillRecord, toSkillResponse } from './dto/skill.response';
import { UpdateSkillDto } from './dto/update-skill.dto';

/** Skills as If-Match and Base-Version check their writes (ResourceVersions.checkerFor). */
export const SKILL_VERSIONS: VersionedKind<SkillRecord> = { resource: 'Skill', representation: toSkillResponse };

/** The skill a POST /skills body (or a bulk item that matches none) creates, with the scale's defaults. */
export function newSkill(organisationId: string, input: CreateSkillDto, now: Date): SkillRecord {
  const skill: SkillRecord = {
    id: newId(),
    organisationId,
    name: input.name,
    nameKey: nameKey(input.name),
    description: input.description ?? null,
    aliases: input.aliases ?? [],
    hiddenAliases: input.hiddenAliases ?? [],
    groups: groupsOf(input.groupIds ?? [], []),
    source: input.source ?? null,
    externalId: input.externalId ?? null,
    ratingScaleMin: input.ratingScaleMin ?? 0,
    ratingScaleMax: input.ratingScaleMax ?? 5,
    ratingScaleType: input.ratingScaleType ?? 'NUMERIC',
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  assertScale(skill);
  assertAliasesDistinct(skill);
  return skill;
}

/**
 * Copies the supplied fields of a PATCH onto the skill (an array replaces the stored one); the scale must still
 * hold and the aliases be distinct (400 otherwise).
 */
export function applyChanges(skill: SkillRecord, input: UpdateSkillDto): void {
  const { groupIds, ...fields } = input;
  for (const [field, value] of Object.entries(fields) as [string, unknown][]) {
    if (value !== undefined) Object.assign(skill, { [field]: value });
  }
  // A skill whose key an older one took (see the catalogue migration) gets one only when it is renamed.
  if (input.name !== undefined && (skill.nameKey !== null || input.name !== skill.name)) {
    skill.nameKey = nameKey(skill.name);
  }
  if (groupIds !== undefined) skill.groups = groupsOf(groupIds, skill.groups);
  assertScale(skill);
  assertAliasesDistinct(skill);
}

/**
 * The fields of the Skill a change of `before` into `after` alters (what If-Match and Base-Version compare). The
 * groups by their ids, in any order: a group new to the skill is named only when its link is written.
 */
export function changedFields(before: SkillRecord, after: SkillRecord): string[] {
  const shown = (skill: SkillRecord) => ({
    ...toSkillResponse(skill),
    groups: skill.groups.map(({ id }) => id).sort(),
  });
  return Object.keys(changesBetween(shown(before), shown(after)));
}

/**
 * The groups with these ids, in no particular order yet: names the skill already knows are kept, the others are
 * filled in when the links are written (which answers 404 for a group the organisation lacks). A malformed id
 * is unknown too.
 */
function groupsOf(ids: string[], known: SkillGroupRef[]): SkillGroupRef[] {
  const byId = new Map(known.map((group) => [group.id, group]));
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  return unique.map((id) => {
    if (!isUuid(id)) throw new NotFoundError('SkillGroup');
    return byId.get(id) ?? { id, name: '' };
  });
}

function assertScale(skill: SkillRecord): void {
  if (skill.ratingScaleMin > skill.ratingScaleMax) {
    throw ValidationError.forField(
      'ratingScaleMin',
      `ratingScaleMin (${skill.ratingScaleMin}) must not be greater than ratingScaleMax (${skill.ratingScaleMax})`,
    );
  }
}

/** Each name once among a skill's aliases and hidden aliases, as names are compared (400 naming the repeat). */
function assertAliasesDistinct(skill: SkillRecord): void {
  const seen = new Map<string, string>();
  const named = [
    ...skill.aliases.map((alias, index) => ({ alias, field: `aliases[${index}]` })),
    ...skill.hiddenAliases.map((alias, index) => ({ alias, field: `hiddenAliases[${index}]` })),
  ];
  for (const { alias, field } of named) {
    const key = nameKey(alias);
    const earlier = seen.get(key);
    if (earlier) throw ValidationError.forField(field, `${field} repeats ${earlier} ("${alias}")`);
    seen.set(key, field);
  }
}
