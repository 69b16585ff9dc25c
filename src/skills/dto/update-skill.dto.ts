import { OmitType, PartialType } from '@nestjs/swagger';
import { RatingScaleType } from '../entities/skill.entity';
import { CreateSkillDto, ScaleBound, ScaleType } from './create-skill.dto';

/**
 * A partial update: only supplied fields change, each by the rules of POST /skills; only description, source and
 * externalId may be cleared with null (skipNullProperties: false validates a null elsewhere, and refuses it). The
 * scale is declared again only because a PATCH has no defaults.
 */
export class UpdateSkillDto extends PartialType(
  OmitType(CreateSkillDto, ['ratingScaleMin', 'ratingScaleMax', 'ratingScaleType'] as const),
  { skipNullProperties: false },
) {
  @ScaleBound()
  ratingScaleMin?: number;

  @ScaleBound()
  ratingScaleMax?: number;

  @ScaleType()
  ratingScaleType?: RatingScaleType;
}
