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

  /**
   * How many active employees have each latest score on the skill (`score` null: linked, never rated): the
   * employees GET /skills/{id}/employees?isActive=true lists, counted by score. The caller has found the skill.
   */
  async activeScoreDistribution(
    organisationId: string,
    skillId: string,
  ): Promise<Array<{ score: number | null; count: number }>> {
    return this.skillEmployees.latestScoreCounts(organisationId, skillId, { isActive: true });
  }
}
