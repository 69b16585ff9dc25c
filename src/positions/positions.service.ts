import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { NotFoundError } from '../common/errors';
import { Page } from '../common/pagination';
import { EmployeesRepository } from '../employees/employees.repository';
import { RatingsRepository } from '../ratings/ratings.repository';
import { CandidateResponse, toCandidateResponse } from './dto/candidate.response';
import { ListCandidatesQuery } from './dto/list-candidates.query';
import { ListPositionsQuery } from './dto/list-positions.query';
import {
  PositionDetailResponse,
  PositionRecord,
  PositionResponse,
  toPositionDetailResponse,
  toPositionResponse,
  toPossibleReplacementResponse,
} from './dto/position.response';
import { PositionsRepository } from './positions.repository';

const NO_SCORES: ReadonlyMap<string, number> = new Map();

@Injectable()
export class PositionsService {
  constructor(
    private readonly positions: PositionsRepository,
    private readonly ratings: RatingsRepository,
    private readonly employees: EmployeesRepository,
  ) {}

  /** Three queries: the page, its count, the required skills of the page. */
  async list(organisationId: string, query: ListPositionsQuery): Promise<Page<PositionResponse>> {
    const [records, total] = await this.positions.findPage(organisationId, query);
    return Page.of(await this.withRequiredSkills(organisationId, records), total, query);
  }

  /** Four queries at most: the position, its required skills, its replacements, their latest scores. */
  async get(organisationId: string, id: string): Promise<PositionDetailResponse> {
    const record = await this.positions.findById(organisationId, id);
    if (!record) throw new NotFoundError('Position');
    const requiredSkills = (await this.positions.requiredSkillsOf(organisationId, [id])).get(id) ?? [];
    const replacements = await this.positions.replacementsOf(organisationId, id);
    const scores = await this.ratings.latestScores(
      organisationId,
      replacements.map((replacement) => replacement.candidate.id),
      requiredSkills.map((skill) => skill.skillId),
    );
    const possibleReplacements = replacements.map((replacement) =>
      toPossibleReplacementResponse(replacement, requiredSkills, scores.get(replacement.candidate.id) ?? NO_SCORES),
    );
    return toPositionDetailResponse(record, requiredSkills, possibleReplacements);
  }

  /**
   * Five queries: the position, its required skills, the ranked page and the employee count (concurrently),
   * the page's latest scores. The ranking only orders; each candidate's totals come from its skillsGap.
   */
  async candidates(organisationId: string, id: string, query: ListCandidatesQuery): Promise<Page<CandidateResponse>> {
    if (!(await this.positions.findById(organisationId, id))) throw new NotFoundError('Position');
    const requiredSkills = (await this.positions.requiredSkillsOf(organisationId, [id])).get(id) ?? [];
    const [employees, total] = await Promise.all([
      this.positions.rankCandidates(organisationId, id, query.isActive, query),
      this.employees.countAll(organisationId, query.isActive),
    ]);
    const scores = await this.ratings.latestScores(
      organisationId,
      employees.map((employee) => employee.id),
      requiredSkills.map((skill) => skill.skillId),
    );
    const candidates = employees.map((employee) =>
      toCandidateResponse(employee, requiredSkills, scores.get(employee.id) ?? NO_SCORES),
    );
    return Page.of(candidates, total, query);
  }

  /** The given positions as the API returns them, in list order; the import publishes these in its transaction. */
  async responsesFor(organisationId: string, ids: string[], manager?: EntityManager): Promise<PositionResponse[]> {
    const records = await this.positions.findByIds(organisationId, ids, manager);
    return this.withRequiredSkills(organisationId, records, manager);
  }

  private async withRequiredSkills(
    organisationId: string,
    records: PositionRecord[],
    manager?: EntityManager,
  ): Promise<PositionResponse[]> {
    const ids = records.map((record) => record.id);
    const requiredSkills = await this.positions.requiredSkillsOf(organisationId, ids, manager);
    return records.map((record) => toPositionResponse(record, requiredSkills.get(record.id) ?? []));
  }
}
