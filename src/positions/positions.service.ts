import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EmployeesRepository } from '../employees/employees.repository';
import { NotFoundError } from '../errors/errors';
import { ListCursors, ListIdentity, ListOrder } from '../pagination/cursor';
import { Page } from '../pagination/pagination';
import { RatingsRepository } from '../ratings/ratings.repository';
import { CandidatesRepository } from './candidates.repository';
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
import { computeSkillsGap, summariseSkillsGap } from './skills-gap';

const NO_SCORES: ReadonlyMap<string, number> = new Map();

/** The candidates' ranking; only keyOf is read: CandidatesRepository.rank writes its keyset on the computed totals. */
const CANDIDATE_ORDER: ListOrder<CandidateResponse> = {
  columns: ['total_gap', 'matched', 'id'],
  descending: false,
  keyOf: (candidate) => [candidate.totalGap, candidate.matchedSkills, candidate.employee.id],
};

@Injectable()
export class PositionsService {
  constructor(
    private readonly positions: PositionsRepository,
    private readonly ranking: CandidatesRepository,
    private readonly ratings: RatingsRepository,
    private readonly employees: EmployeesRepository,
    private readonly cursors: ListCursors,
  ) {}

  /** Three queries: the page, its count (page mode only), the required skills of the page. */
  async list(organisationId: string, query: ListPositionsQuery): Promise<Page<PositionResponse>> {
    const list: ListIdentity = { name: 'positions', organisationId };
    const read = await this.positions.findPage(organisationId, query, this.cursors.window(list, query));
    const page = this.cursors.page(list, query, read, (record) => record);
    return new Page(await this.withRequiredSkills(organisationId, page.items), page.meta);
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
   * Four queries: the position, its required skills, then the ranked page with its latest scores and (page mode
   * only) the employee count concurrently. A cursor carries the last candidate's (totalGap, matchedSkills, id): a
   * keyset on the ranking.
   */
  async candidates(organisationId: string, id: string, query: ListCandidatesQuery): Promise<Page<CandidateResponse>> {
    if (!(await this.positions.findById(organisationId, id))) throw new NotFoundError('Position');
    const list: ListIdentity = { name: 'position-candidates', organisationId, pathIds: [id] };
    const window = this.cursors.window(list, query);
    const requiredSkills = (await this.positions.requiredSkillsOf(organisationId, [id])).get(id) ?? [];
    // Every employee starts at the totals of having no rating on any required skill.
    const unrated = summariseSkillsGap(computeSkillsGap(requiredSkills, NO_SCORES));
    const [ranked, total] = await Promise.all([
      this.ranking.rank(organisationId, requiredSkills, unrated, query.isActive, window),
      window.counted ? this.employees.countAll(organisationId, query.isActive) : null,
    ]);
    // The ranking only orders; each candidate's totals come from its skillsGap.
    const candidates = ranked.map(({ employee, latestScoreBySkillId }) =>
      toCandidateResponse(employee, requiredSkills, latestScoreBySkillId),
    );
    return this.cursors.page(list, query, { rows: candidates, order: CANDIDATE_ORDER, total }, (row) => row);
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
