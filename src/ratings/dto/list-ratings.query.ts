import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { IsIsoDateTime } from '../../common/iso-date-time';
import { PaginationQuery } from '../../common/pagination';
import { RATING_TYPES, RatingType } from '../../common/rating-types';

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
