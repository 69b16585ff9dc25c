import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ListCursors, ListIdentity } from '../common/cursor';
import { NotFoundError } from '../common/errors';
import { Page } from '../common/pagination';
import { RatingsRepository } from '../ratings/ratings.repository';
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
