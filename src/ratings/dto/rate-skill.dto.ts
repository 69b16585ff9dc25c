import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, MaxLength } from 'class-validator';
import { RATING_TYPES, RatingType } from '../../skills/rating-types';

/** Body of PUT /employees/{id}/skills/{skillId}: one new rating. */
export class RateSkillDto {
  @ApiProperty({ type: 'integer', description: "An integer within the skill's rating scale, inclusive" })
  @IsInt()
  score: number;

  @ApiProperty({ enum: RATING_TYPES })
  @IsIn(RATING_TYPES)
  ratingType: RatingType;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  comment?: string | null;
}
