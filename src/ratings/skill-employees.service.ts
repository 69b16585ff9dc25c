import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import { Page } from '../common/pagination';
import { ListSkillEmployeesQuery } from './dto/list-skill-employees.query';
import { SkillEmployeeResponse, toSkillEmployeeResponse } from './dto/skill-employee.response';
import { RatingsRepository } from './ratings.repository';

@Injectable()
export class SkillEmployeesService {
  constructor(private readonly ratings: RatingsRepository) {}

  /** Two concurrent queries: the page, and its total (which also proves the skill exists). */
  async list(
    organisationId: string,
    skillId: string,
    query: ListSkillEmployeesQuery,
  ): Promise<Page<SkillEmployeeResponse>> {
    const found = await this.ratings.findSkillEmployees(
      organisationId,
      skillId,
      { minScore: query.minScore, isActive: query.isActive },
      query,
    );
    if (!found) throw new NotFoundError('Skill');
    const [records, total] = found;
    return Page.of(records.map(toSkillEmployeeResponse), total, query);
  }
}
