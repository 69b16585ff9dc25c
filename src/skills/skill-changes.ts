import { newId } from '../database/uuid';
import { ValidationError } from '../errors/errors';
import { CreateSkillDto } from './dto/create-skill.dto';
import { UpdateSkillDto } from './dto/update-skill.dto';
import { Skill } from './entities/skill.entity';

/** The skill a POST /skills body (or a bulk item that matches none) creates, with the scale's defaults. */
export function newSkill(organisationId: string, input: CreateSkillDto, now: Date): Skill {
  const skill: Skill = {
    id: newId(),
    organisationId,
    name: input.name,
    description: input.description ?? null,
    ratingScaleMin: input.ratingScaleMin ?? 0,
    ratingScaleMax: input.ratingScaleMax ?? 5,
    ratingScaleType: input.ratingScaleType ?? 'NUMERIC',
    createdAt: now,
    updatedAt: now,
  };
  assertScale(skill);
  return skill;
}

/** Copies the supplied fields of a PATCH onto the skill; the scale must still hold (400 otherwise). */
export function applyChanges(skill: Skill, input: UpdateSkillDto): void {
  for (const [field, value] of Object.entries(input) as [string, unknown][]) {
    if (value !== undefined) Object.assign(skill, { [field]: value });
  }
  assertScale(skill);
}

function assertScale(skill: Skill): void {
  if (skill.ratingScaleMin > skill.ratingScaleMax) {
    throw ValidationError.forField(
      'ratingScaleMin',
      `ratingScaleMin (${skill.ratingScaleMin}) must not be greater than ratingScaleMax (${skill.ratingScaleMax})`,
    );
  }
}
