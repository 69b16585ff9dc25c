import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { ParseIdPipe } from '../database/uuid';
import { ApiEnvelope, ApiErrors } from '../openapi/api-envelope.decorators';
import { Page } from '../pagination/pagination';
import { CandidateResponse } from './dto/candidate.response';
import { ListCandidatesQuery } from './dto/list-candidates.query';
import { ListPositionsQuery } from './dto/list-positions.query';
import { PositionDetailResponse, PositionResponse } from './dto/position.response';
import { PositionsService } from './positions.service';

/** Read only: positions come in through the `positions import` command. */
@ApiTags('Positions')
@RequiresScope('read', 'write')
@Controller('positions')
export class PositionsController {
  constructor(private readonly positions: PositionsService) {}

  @Get()
  @ApiOperation({ summary: 'List positions, oldest first (createdAt, then id)' })
  @ApiEnvelope(PositionResponse, { paginated: true })
  @ApiErrors(400)
  list(@OrgId() organisationId: string, @Query() query: ListPositionsQuery): Promise<Page<PositionResponse>> {
    return this.positions.list(organisationId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A position with its possible replacements and each candidate’s skills gap' })
  @ApiParam({ name: 'id', description: 'Position id (UUID)' })
  @ApiEnvelope(PositionDetailResponse)
  @ApiErrors(404)
  get(
    @OrgId() organisationId: string,
    @Param('id', new ParseIdPipe('Position')) id: string,
  ): Promise<PositionDetailResponse> {
    return this.positions.get(organisationId, id);
  }

  @Get(':id/candidates')
  @ApiOperation({
    summary:
      'Every employee ranked for the position: totalGap ascending, then matchedSkills descending, then employee id',
  })
  @ApiParam({ name: 'id', description: 'Position id (UUID)', example: '0193a1b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b' })
  @ApiEnvelope(CandidateResponse, { paginated: true })
  @ApiErrors(400, 404)
  candidates(
    @OrgId() organisationId: string,
    @Param('id', new ParseIdPipe('Position')) id: string,
    @Query() query: ListCandidatesQuery,
  ): Promise<Page<CandidateResponse>> {
    return this.positions.candidates(organisationId, id, query);
  }
}
