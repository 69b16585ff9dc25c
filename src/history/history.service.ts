import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../errors/errors';
import { ListCursors, ListIdentity } from '../pagination/cursor';
import { Page, PaginationQuery } from '../pagination/pagination';
import { ResourceEventsRepository } from '../versions/resource-events.repository';
import { HistoryEntryResponse, toHistoryEntryResponse } from './dto/history-entry.response';
import { HistoryRepository, HistoryTable } from './history.repository';

/** A resource whose history GET …/history lists: its name in messages and lists, and its table. */
interface HistoryOf {
  resource: 'Employee' | 'Skill';
  table: HistoryTable;
}

const EMPLOYEE: HistoryOf = { resource: 'Employee', table: 'employees' };
const SKILL: HistoryOf = { resource: 'Skill', table: 'skills' };

/**
 * GET /employees/{id}/history and GET /skills/{id}/history: the feed's events about one resource, newest first,
 * paged as every list. A resource that is gone (an erased employee, a deleted skill) keeps its history while the
 * feed keeps its events (an erased employee's redacted); an id with neither is 404.
 */
@Injectable()
export class HistoryService {
  constructor(
    private readonly events: ResourceEventsRepository,
    private readonly cursors: ListCursors,
    private readonly resources: HistoryRepository,
  ) {}

  employeeHistory(organisationId: string, id: string, query: PaginationQuery): Promise<Page<HistoryEntryResponse>> {
    return this.list(EMPLOYEE, organisationId, id, query);
  }

  skillHistory(organisationId: string, id: string, query: PaginationQuery): Promise<Page<HistoryEntryResponse>> {
    return this.list(SKILL, organisationId, id, query);
  }

  private async list(
    of: HistoryOf,
    organisationId: string,
    id: string,
    query: PaginationQuery,
  ): Promise<Page<HistoryEntryResponse>> {
    const list: ListIdentity = { name: `${of.resource.toLowerCase()}-history`, organisationId, pathIds: [id] };
    const window = this.cursors.window(list, query);
    const read = await this.events.listNewestFirst(organisationId, id, window);
    // Without a kept event, the resource itself must exist (one untouched since retention pruned its events).
    const hasEvents = read.rows.length > 0 || (read.total ?? 0) > 0;
    if (!hasEvents && !(await this.resources.exists(organisationId, of.table, id)))
      throw new NotFoundError(of.resource);
    return this.cursors.page(list, query, read, toHistoryEntryResponse);
  }
}
