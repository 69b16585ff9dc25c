import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { RATING_SCALE_TYPES, RatingScaleType, Skill } from '../entities/skill.entity';
import { SkillGroupRefResponse } from './skill-group-ref.response';

@ApiSchema({ name: 'Skill' })
export class SkillResponse {
  @ApiProperty()
  id: string;
  @ApiProperty()
  name: string;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
  @ApiProperty({ type: [String], description: 'Other names shown to people, in the order given' })
  aliases: string[];
  @ApiProperty({ type: [String], description: 'Names used only for matching (misspellings, old names)' })
  hiddenAliases: string[];
  @ApiProperty({ type: [SkillGroupRefResponse], description: 'The groups the skill is in, by name' })
  groups: SkillGroupRefResponse[];
  @ApiProperty({ type: String, nullable: true, maxLength: 50, description: 'The taxonomy it comes from, e.g. esco' })
  source: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 500, description: 'Its id in that taxonomy' })
  externalId: string | null;
  @ApiProperty({ type: 'integer' })
  ratingScaleMin: number;
  @ApiProperty({ type: 'integer' })
  ratingScaleMax: number;
  @ApiProperty({ enum: RATING_SCALE_TYPES })
  ratingScaleType: RatingScaleType;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'Moves on every change of the skill (a PATCH)' })
  updatedAt: string;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      '1 at creation, +1 at every change of the skill itself (a no-op PATCH changes nothing); sent as the ETag, ' +
      'and what If-Match and Base-Version name',
  })
  version: number;
}

@ApiSchema({ name: 'SkillDetail' })
export class SkillDetailResponse extends SkillResponse {
  @ApiProperty({ type: 'integer', description: 'Number of active employees linked to the skill' })
  employeeCount: number;
}

export interface SkillGroupRef {
  id: string;
  name: string;
}

/** A skill with what the catalogue's other tables hold about it: its aliases and its groups (by name, then id). */
export type SkillRecord = Skill & { aliases: string[]; hiddenAliases: string[]; groups: SkillGroupRef[] };

/** The fields a SkillResponse is made of: a record, or a raw row of the skills repository. */
export type SkillFields = Omit<SkillRecord, 'organisationId'>;

export function toSkillResponse(skill: SkillFields): SkillResponse {
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    aliases: skill.aliases,
    hiddenAliases: skill.hiddenAliases,
    groups: skill.groups.map(({ id, name }) => ({ id, name })),
    source: skill.source,
    externalId: skill.externalId,
    ratingScaleMin: skill.ratingScaleMin,
    ratingScaleMax: skill.ratingScaleMax,
    ratingScaleType: skill.ratingScaleType,
    createdAt: skill.createdAt.toISOString(),
    updatedAt: skill.updatedAt.toISOString(),
    version: skill.version,
  };
}
