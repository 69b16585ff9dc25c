import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { DEFAULT_PAGE_SIZE, PageLimit } from '../../../pagination/pagination';
import { FEED_EVENT_NAMES, DomainEventName } from '../../domain-events';

export class ListEventsQuery {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'The id of the last event seen (nextAfter): the page starts after it. Without it, at the oldest kept event.',
  })
  @IsOptional()
  @IsUUID('all')
  after?: string;

  @PageLimit()
  limit: number = DEFAULT_PAGE_SIZE;

  @ApiPropertyOptional({ enum: FEED_EVENT_NAMES, description: 'Only events of this name' })
  @IsOptional()
  @IsIn(FEED_EVENT_NAMES, { message: `event must be one of ${FEED_EVENT_NAMES.join(', ')}` })
  event?: DomainEventName;
}
