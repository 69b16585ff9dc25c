import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../errors/errors';
import { ListCursors, ListIdentity } from '../pagination/cursor';
import { Page } from '../pagination/pagination';
import { ListSkillEmployeesQuery } from './dto/list-skill-employees.query';
import { SkillEmployeeResponse, toSkillEmployeeResponse } from './dto/skill-employee.response';
import { SkillEmployeesRepository } from './skill-employees.repository';

@Injectable()
export class SkillEmployeesService {
  constructor(
    private readonly skillEmployees: SkillEmployeesRepository,
    private readonly cursors: ListCursors,
  ) {}

  /** Two concurrent queries: the page, and its total in page mode (the query also proves the skill exists). */
  async list(
    organisationId: string,
    skillId: string,
    query: ListSkillEmployeesQuery,
  ): Promise<Page<SkillEmployeeResponse>> {
    const list: ListIdentity = { name: 'skill-employees', organisationId, pathIds: [skillId] };
    const found = await this.skillEmployees.findPage(
      organisationId,
      skillId,
      { minScore: query.minScore, isActive: query.isActive },
      this.cursors.window(list, query),
    );
    if (!found) throw new NotFoundError('Skill');
    return this.cursors.page(list, query, found, toSkillEmployeeResponse);
  }
}
