import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { REPLACEMENT_STATUSES, ReplacementStatus } from '../entities/position-replacement.entity';
import { Position, POSITION_STATUSES, PositionStatus } from '../entities/position.entity';
import { computeSkillsGap, RequiredSkill } from '../skills-gap';

/** An employee as a position names it: the person it replaces, or a candidate. */
@ApiSchema({ name: 'PersonReference' })
export class PersonReference {
  @ApiProperty() id: string;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
}

@ApiSchema({ name: 'RequiredSkill' })
export class RequiredSkillResponse {
  @ApiProperty() skillId: string;
  @ApiProperty() skillName: string;
  @ApiProperty({ type: 'integer' }) minimumRating: number;
}

@ApiSchema({ name: 'Position' })
export class PositionResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String })
  description: string | null;
  @ApiProperty({ nullable: true, type: String })
  department: string | null;
  @ApiProperty({ enum: POSITION_STATUSES })
  status: PositionStatus;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' })
  mustBeFilledBy: string | null;
  @ApiProperty({ nullable: true, type: PersonReference })
  replacesPerson: PersonReference | null;
  @ApiProperty({ type: [RequiredSkillResponse], description: 'Ordered by skill name' })
  requiredSkills: RequiredSkillResponse[];
}

@ApiSchema({ name: 'SkillGap' })
export class SkillGapResponse {
  @ApiProperty() skillId: string;
  @ApiProperty() skillName: string;
  @ApiProperty({ type: 'integer' }) minimumRating: number;
  @ApiProperty({
    nullable: true,
    type: 'integer',
    description: "The candidate's latest rating score; null when never rated",
  })
  currentScore: number | null;
  @ApiProperty({ type: 'integer', description: 'max(0, minimumRating − (currentScore ?? 0))' })
  gap: number;
}

@ApiSchema({ name: 'PossibleReplacement' })
export class PossibleReplacementResponse {
  @ApiProperty() replacementId: string;
  @ApiProperty({ type: PersonReference })
  candidate: PersonReference;
  @ApiProperty({ format: 'date-time' })
  readyAt: string;
  @ApiProperty({ enum: REPLACEMENT_STATUSES })
  status: ReplacementStatus;
  @ApiProperty({ type: [SkillGapResponse], description: 'One row per required skill, in the order of requiredSkills' })
  skillsGap: SkillGapResponse[];
}

@ApiSchema({ name: 'PositionDetail' })
export class PositionDetailResponse extends PositionResponse {
  @ApiProperty({ type: [PossibleReplacementResponse], description: 'Ordered by readyAt, then replacementId' })
  possibleReplacements: PossibleReplacementResponse[];
}

/** A position with the employee it replaces (id and names only), as the positions repository reads it. */
export type PositionRecord = Pick<
  Position,
  'id' | 'name' | 'description' | 'department' | 'status' | 'mustBeFilledBy' | 'createdAt'
> & { replacesPerson: PersonReference | null };

export interface ReplacementRecord {
  id: string;
  candidate: PersonReference;
  readyAt: Date;
  status: ReplacementStatus;
}

export function toPositionResponse(record: PositionRecord, requiredSkills: RequiredSkill[]): PositionResponse {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    department: record.department,
    status: record.status,
    mustBeFilledBy: record.mustBeFilledBy?.toISOString() ?? null,
    replacesPerson: record.replacesPerson,
    requiredSkills: requiredSkills.map(({ skillId, skillName, minimumRating }) => ({
      skillId,
      skillName,
      minimumRating,
    })),
  };
}

export function toPossibleReplacementResponse(
  replacement: ReplacementRecord,
  requiredSkills: RequiredSkill[],
  latestScoreBySkillId: ReadonlyMap<string, number>,
): PossibleReplacementResponse {
  return {
    replacementId: replacement.id,
    candidate: replacement.candidate,
    readyAt: replacement.readyAt.toISOString(),
    status: replacement.status,
    skillsGap: computeSkillsGap(requiredSkills, latestScoreBySkillId),
  };
}

export function toPositionDetailResponse(
  record: PositionRecord,
  requiredSkills: RequiredSkill[],
  possibleReplacements: PossibleReplacementResponse[],
): PositionDetailResponse {
  return { ...toPositionResponse(record, requiredSkills), possibleReplacements };
}
