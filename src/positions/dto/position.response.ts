import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { POSITION_STATUSES, PositionStatus } from '../entities/position.entity';
import { REPLACEMENT_STATUSES, ReplacementStatus } from '../entities/position-replacement.entity';

// Every property is decorated: the swagger plugin only reads *.dto.ts and *.entity.ts files.

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
  @ApiProperty({ nullable: true, type: 'integer', description: "The candidate's latest rating score; null when never rated" })
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
