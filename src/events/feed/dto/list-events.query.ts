import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { MAX_PAGE_SIZE } from '../../../common/pagination';
import { toIntegerIfDigits } from '../../../common/query-transforms';
import { DOMAIN_EVENT_NAMES, DomainEventName } from '../../domain-events';

export class ListEventsQuery {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'The id of the last event seen (nextAfter): the page starts after it. Without it, at the oldest kept event.',
  })
  @IsOptional()
  @IsUUID('all')
  after?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 20 })
  @Transform(({ value }) => toIntegerIfDigits(value))
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = 20;

  @ApiPropertyOptional({ enum: DOMAIN_EVENT_NAMES, description: 'Only events of this name' })
  @IsOptional()
  @IsIn(DOMAIN_EVENT_NAMES, { message: `event must be one of ${DOMAIN_EVENT_NAMES.join(', ')}` })
  event?: DomainEventName;
}
