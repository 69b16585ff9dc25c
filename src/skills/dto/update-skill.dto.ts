import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsOptionalNotNull } from '../../validation/optional-not-null';
import { RATING_SCALE_TYPES, RatingScaleType } from '../entities/skill.entity';
import { AliasList, ExternalField, GroupIdList } from './catalogue-fields';
import { INT32_MAX, INT32_MIN } from './create-skill.dto';

/** A partial update: only supplied fields change; only description may be cleared with null. */
export class UpdateSkillDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

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

  @ApiPropertyOptional({ type: 'integer' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  ratingScaleMin?: number;

  @ApiPropertyOptional({ type: 'integer' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  ratingScaleMax?: number;

  @ApiPropertyOptional({ enum: RATING_SCALE_TYPES })
  @IsOptionalNotNull()
  @IsIn(RATING_SCALE_TYPES)
  ratingScaleType?: RatingScaleType;
}
