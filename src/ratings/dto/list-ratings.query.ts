import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { PaginationQuery } from '../../pagination/pagination';
import { RATING_TYPES, RatingType } from '../../skills/rating-types';
import { IsIsoDateTime } from '../../validation/iso-date-time';

export class ListRatingsQuery extends PaginationQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'An unknown (or malformed) skill id gives an empty list' })
  @IsOptional()
  @IsString()
  skillId?: string;

  @ApiPropertyOptional({ enum: RATING_TYPES })
  @IsOptional()
  @IsIn(RATING_TYPES)
  ratingType?: RatingType;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Inclusive lower bound on createdAt' })
  @IsOptional()
  @IsIsoDateTime()
  from?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'Inclusive upper bound on createdAt' })
  @IsOptional()
  @IsIsoDateTime()
  to?: string;
}
