import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { RATING_SCALE_TYPES, RatingScaleType, Skill } from '../entities/skill.entity';

@ApiSchema({ name: 'Skill' })
export class SkillResponse {
  @ApiProperty()
  id: string;
  @ApiProperty()
  name: string;
  @ApiProperty({ type: String, nullable: true })
  description: string | null;
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
}

@ApiSchema({ name: 'SkillDetail' })
export class SkillDetailResponse extends SkillResponse {
  @ApiProperty({ type: 'integer', description: 'Number of active employees linked to the skill' })
  employeeCount: number;
}

/** The columns a SkillResponse is made of: an entity, or a raw row of the skills repository. */
export type SkillFields = Omit<Skill, 'organisationId'>;

export function toSkillResponse(skill: SkillFields): SkillResponse {
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    ratingScaleMin: skill.ratingScaleMin,
    ratingScaleMax: skill.ratingScaleMax,
    ratingScaleType: skill.ratingScaleType,
    createdAt: skill.createdAt.toISOString(),
    updatedAt: skill.updatedAt.toISOString(),
  };
}
