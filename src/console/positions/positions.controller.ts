import { Get, Param, Query } from '@nestjs/common';
import { validateItem } from '../../bulk/bulk';
import { ParseIdPipe } from '../../database/uuid';
import { ListCandidatesQuery } from '../../positions/dto/list-candidates.query';
import { ListPositionsQuery } from '../../positions/dto/list-positions.query';
import { POSITION_STATUSES } from '../../positions/entities/position.entity';
import { PositionsService } from '../../positions/positions.service';
import { ConsoleController } from '../http/console-controller.decorator';
import { ConsolePage, Page } from '../http/console-request';
import { Html } from '../http/html';
import { pageFieldsOf, pageNumber } from '../http/query';
import { positionPage, positionsPage } from './positions.page';

/** Positions on one page of the Positions page. */
export const POSITIONS_PAGE_SIZE = 50;

/** Candidates on one page of a position's page: the best few, each with a chart. */
export const CANDIDATES_PAGE_SIZE = 10;

const PositionId = () => Param('id', new ParseIdPipe('Position'));

/**
 * The Positions pages, read only as the API's: the list (50 a page, filtered by status), and a position with its
 * required skills, its possible replacements and its best candidates as GET /positions/{id}/candidates ranks
 * them, each with a bar per required skill. Through PositionsService, so the ranking and the gaps are the API's.
 */
@ConsoleController('positions')
export class PositionsConsoleController {
  constructor(private readonly positions: PositionsService) {}

  @Get()
  async list(
    @Page() { organisationId, viewer }: ConsolePage,
    @Query('status') statusParameter: unknown,
    @Query('page') page: unknown,
  ): Promise<Html> {
    const status = POSITION_STATUSES.find((known) => known === statusParameter);
    const query = validateItem(ListPositionsQuery, {
      page: pageNumber(page),
      limit: POSITIONS_PAGE_SIZE,
      ...(status === undefined ? {} : { status }),
    });
    const positions = await this.positions.list(organisationId, query);
    return positionsPage(viewer, { positions: positions.items, meta: pageFieldsOf(positions), status });
  }

  @Get(':id')
  async position(
    @Page() { organisationId, viewer }: ConsolePage,
    @PositionId() id: string,
    @Query('page') page: unknown,
  ): Promise<Html> {
    const position = await this.positions.get(organisationId, id);
    const query = validateItem(ListCandidatesQuery, { page: pageNumber(page), limit: CANDIDATES_PAGE_SIZE });
    const candidates = await this.positions.candidates(organisationId, id, query);
    return positionPage(viewer, position, { candidates: candidates.items, meta: pageFieldsOf(candidates) });
  }
}
