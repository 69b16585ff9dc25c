import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OrgId } from '../auth/org-id.decorator';
import { RequiresScope } from '../auth/scopes';
import { ParseIdPipe } from '../database/uuid';
import { ApiEnvelope, ApiErrors } from '../openapi/api-envelope.decorators';
import { Page, PaginationQuery } from '../pagination/pagination';
import { HistoryEntryResponse } from './dto/history-entry.response';
import { HistoryService } from './history.service';

const HISTORY =
  'The events feed holds about it, newest first (by version), each with the version it made, `actor`, ' +
  '`requestId` and, for an update, `changes`; kept as long as the feed keeps events (EVENT_RETENTION_DAYS). ' +
  'Paged by `page` or `cursor` as every list.';

/**
 * GET …/history: the feed's events about one resource (docs/api-decisions.md, "Writes that never overwrite each other"),
 * under the feed's tag and scope.
 */
@ApiTags('Events')
@RequiresScope('events')
@Controller()
export class HistoryController {
  constructor(private readonly history: HistoryService) {}

  @Get('employees/:id/history')
  @ApiOperation({
    summary: "An employee's changes, newest first",
    description: `${HISTORY} After an erasure only the redacted events remain, and the id stays listed here.`,
  })
  @ApiEnvelope(HistoryEntryResponse, { paginated: true })
  @ApiErrors(400, 404)
  employee(
    @OrgId() organisationId: string,
    @Param('id', new ParseIdPipe('Employee')) id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<HistoryEntryResponse>> {
    return this.history.employeeHistory(organisationId, id, query);
  }

  @Get('skills/:id/history')
  @ApiOperation({ summary: "A skill's changes, newest first", description: HISTORY })
  @ApiEnvelope(HistoryEntryResponse, { paginated: true })
  @ApiErrors(400, 404)
  skill(
    @OrgId() organisationId: string,
    @Param('id', new ParseIdPipe('Skill')) id: string,
    @Query() query: PaginationQuery,
  ): Promise<Page<HistoryEntryResponse>> {
    return this.history.skillHistory(organisationId, id, query);
  }
}
