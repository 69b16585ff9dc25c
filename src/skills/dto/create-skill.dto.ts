import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsOptionalNotNull } from '../../validation/optional-not-null';
import { RATING_SCALE_TYPES, RatingScaleType } from '../entities/skill.entity';
import { AliasList, ExternalField, GroupIdList } from './catalogue-fields';

// The bounds of a PostgreSQL integer, so an out-of-range scale is a 400 and never a database error.
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

/** `ratingScaleMin` or `ratingScaleMax`: an integer; `defaultValue` where a POST has one. */
export function ScaleBound(defaultValue?: number) {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: INT32_MIN,
      maximum: INT32_MAX,
      ...(defaultValue === undefined ? {} : { default: defaultValue }),
    }),
    IsOptionalNotNull(),
    IsInt(),
    Min(INT32_MIN),
    Max(INT32_MAX),
  );
}

/** `ratingScaleType`; `defaultValue` where a POST has one. */
export function ScaleType(defaultValue?: RatingScaleType) {
  return applyDecorators(
    ApiPropertyOptional({ enum: RATING_SCALE_TYPES, ...(defaultValue === undefined ? {} : { default: defaultValue }) }),
    IsOptionalNotNull(),
    IsIn(RATING_SCALE_TYPES),
  );
}

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

  @AliasList("Other names shown to people (each 1–200 characters); never another skill's name")
  aliases?: string[];

  @AliasList('Names used only for matching, such as misspellings')
  hiddenAliases?: string[];

  @GroupIdList()
  groupIds?: string[];

  @ExternalField(50, 'The taxonomy the skill comes from, e.g. esco')
  source?: string | null;

  @ExternalField(500, 'Its id in that taxonomy; source + externalId is unique in the organisation')
  externalId?: string | null;

  @ScaleBound(0)
  ratingScaleMin?: number;

  @ScaleBound(5)
  ratingScaleMax?: number;

  @ScaleType('NUMERIC')
  ratingScaleType?: RatingScaleType;
}
