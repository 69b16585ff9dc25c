import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PaginationQuery } from '../../pagination/pagination';
import { POSITION_STATUSES, PositionStatus } from '../entities/position.entity';

export class ListPositionsQuery extends PaginationQuery {
  @ApiPropertyOptional({ enum: POSITION_STATUSES, description: 'Only positions with this status' })
  @IsOptional()
  @IsIn(POSITION_STATUSES, { message: `status must be one of ${POSITION_STATUSES.join(', ')}` })
  status?: PositionStatus;
}
