import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsOptionalNotNull } from '../../validation/optional-not-null';
import { RATING_SCALE_TYPES, RatingScaleType } from '../entities/skill.entity';

// The bounds of a PostgreSQL integer, so an out-of-range scale is a 400 and never a database error.
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

export class CreateSkillDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string | null;

  @ApiPropertyOptional({ type: 'integer', default: 0 })
  @IsOptionalNotNull()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  ratingScaleMin?: number;

  @ApiPropertyOptional({ type: 'integer', default: 5 })
  @IsOptionalNotNull()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  ratingScaleMax?: number;

  @ApiPropertyOptional({ enum: RATING_SCALE_TYPES, default: 'NUMERIC' })
  @IsOptionalNotNull()
  @IsIn(RATING_SCALE_TYPES)
  ratingScaleType?: RatingScaleType;
}
