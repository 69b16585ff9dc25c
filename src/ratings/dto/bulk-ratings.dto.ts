import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { BulkItems } from '../../bulk/bulk';
import { ValidationError } from '../../errors/errors';
import { IsOptionalNotNull } from '../../validation/optional-not-null';
import { RateSkillDto } from './rate-skill.dto';

/** One item of POST /ratings/bulk: a POST /employees/{id}/ratings body naming its employee and skill itself. */
export class BulkRatingItemDto extends RateSkillDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'The employee; or personnelNumber, exactly one of the two' })
  @IsOptionalNotNull()
  @IsString()
  employeeId?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'The employee; or employeeId, exactly one of the two' })
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  personnelNumber?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The skill; or skillName, exactly one of the two' })
  @IsOptionalNotNull()
  @IsString()
  skillId?: string;

  @ApiPropertyOptional({
    maxLength: 200,
    description: 'The skill, by name in any case; or skillId, exactly one of the two',
  })
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  skillName?: string;
}

/** Body of POST /ratings/bulk. */
export class BulkRatingsDto {
  @BulkItems(
    BulkRatingItemDto,
    'Each creates one Rating, as POST /employees/{id}/ratings, creating the employee skill when absent',
  )
  items: unknown[];
}

/** A rating item names its employee and its skill each exactly once; else 400 naming the first field. */
export function assertOneReferenceEach(item: BulkRatingItemDto): void {
  for (const [byId, byKey] of [
    ['employeeId', 'personnelNumber'],
    ['skillId', 'skillName'],
  ] as const) {
    if ((item[byId] === undefined) === (item[byKey] === undefined)) {
      throw ValidationError.forField(byId, `exactly one of ${byId} and ${byKey} must be given`);
    }
  }
}
