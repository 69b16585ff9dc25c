import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { Employee } from '../employees/entities/employee.entity';
import { ListPositionsQuery } from './dto/list-positions.query';
import { PersonReference } from './dto/position.response';
import { Position } from './entities/position.entity';
import { ReplacementStatus } from './entities/position-replacement.entity';
import { RequiredSkill } from './skills-gap';

/** A position with the employee it replaces (id and names only). */
export interface PositionRecord {
  position: Position;
  replacesPerson: PersonReference | null;
}

export interface ReplacementRecord {
  id: string;
  candidate: PersonReference;
  readyAt: Date;
  status: ReplacementStatus;
}

/** Latest rating score, by employee id, then by skill id. */
export type LatestScores = Map<string, Map<string, number>>;

/**
 * The read queries of positions. Each loads a whole set at once (a page, or every child of a set of
 * positions), so a list or a detail costs a fixed number of queries whatever its size.
 * Every method takes the organisation first and an optional EntityManager last (the import reads inside
 * its transaction).
 */
@Injectable()
export class PositionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One page in list order (createdAt, id), and the total: two queries. */
  async findPage(organisationId: string, query: ListPositionsQuery): Promise<[PositionRecord[], number]> {
    const builder = this.positionsOf(this.dataSource.manager, organisationId)
      .orderBy('p.createdAt', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .offset(query.offset)
      .limit(query.limit);
    if (query.status) builder.andWhere('p.status = :status', { status: query.status });
    const [positions, total] = await builder.getManyAndCount();
    return [positions.map(toPositionRecord), total];
  }

  async findById(organisationId: string, id: string, manager = this.dataSource.manager): Promise<PositionRecord | null> {
    const position = await this.positionsOf(manager, organisationId).andWhere('p.id = :id', { id }).getOne();
    return position ? toPositionRecord(position) : null;
  }

  /** The given positions, in list order. */
  async findByIds(organisationId: string, ids: string[], manager = this.dataSource.manager): Promise<PositionRecord[]> {
    if (ids.length === 0) return [];
    const positions = await this.positionsOf(manager, organisationId)
      .andWhere('p.id IN (:...ids)', { ids })
      .orderBy('p.createdAt', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .getMany();
    return positions.map(toPositionRecord);
  }

  /** The required skills of each position, by position id, ordered by skill name. */
  async requiredSkillsOf(
    organisationId: string,
    positionIds: string[],
    manager = this.dataSource.manager,
  ): Promise<Map<string, RequiredSkill[]>> {
    const byPositionId = new Map<string, RequiredSkill[]>(positionIds.map((id) => [id, []]));
    if (positionIds.length === 0) return byPositionId;
    const rows: Array<RequiredSkill & { positionId: string }> = await manager.query(
      `SELECT rs.position_id AS "positionId", rs.skill_id AS "skillId", s.name AS "skillName",
              rs.minimum_rating AS "minimumRating"
         FROM position_required_skills rs
         JOIN skills s ON s.id = rs.skill_id
        WHERE rs.organisation_id = $1 AND rs.position_id = ANY($2::uuid[])
        ORDER BY lower(s.name), s.id`,
      [organisationId, positionIds],
    );
    for (const { positionId, ...skill } of rows) byPositionId.get(positionId)?.push(skill);
    return byPositionId;
  }

  /** The possible replacements of one position with their candidates, ordered by readyAt, then id. */
  async replacementsOf(
    organisationId: string,
    positionId: string,
    manager = this.dataSource.manager,
  ): Promise<ReplacementRecord[]> {
    const rows: Array<Omit<ReplacementRecord, 'candidate'> & PersonReference & { candidateId: string }> =
      await manager.query(
        `SELECT r.id, r.ready_at AS "readyAt", r.status,
                e.id AS "candidateId", e.first_name AS "firstName", e.last_name AS "lastName"
           FROM position_replacements r
           JOIN employees e ON e.id = r.candidate_employee_id
          WHERE r.organisation_id = $1 AND r.position_id = $2
          ORDER BY r.ready_at, r.id`,
        [organisationId, positionId],
      );
    return rows.map(({ id, readyAt, status, candidateId, firstName, lastName }) => ({
      id,
      readyAt,
      status,
      candidate: { id: candidateId, firstName, lastName },
    }));
  }

  /**
   * The latest rating score (newest createdAt, then id) of each of the employees on each of the skills,
   * in one query: the (employee, skill) link is found by its unique index, its newest rating by
   * ratings_person_skill_latest_idx.
   */
  async latestScores(
    organisationId: string,
    employeeIds: string[],
    skillIds: string[],
    manager = this.dataSource.manager,
  ): Promise<LatestScores> {
    const scores: LatestScores = new Map();
    if (employeeIds.length === 0 || skillIds.length === 0) return scores;
    const rows: Array<{ employeeId: string; skillId: string; score: number }> = await manager.query(
      `SELECT ps.employee_id AS "employeeId", ps.skill_id AS "skillId", latest.score
         FROM person_skills ps
         CROSS JOIN LATERAL (
           SELECT r.score FROM ratings r
            WHERE r.person_skill_id = ps.id
            ORDER BY r.created_at DESC, r.id DESC
            LIMIT 1
         ) latest
        WHERE ps.organisation_id = $1 AND ps.employee_id = ANY($2::uuid[]) AND ps.skill_id = ANY($3::uuid[])`,
      [organisationId, employeeIds, skillIds],
    );
    for (const { employeeId, skillId, score } of rows) {
      const ofEmployee = scores.get(employeeId) ?? new Map<string, number>();
      ofEmployee.set(skillId, score);
      scores.set(employeeId, ofEmployee);
    }
    return scores;
  }

  private positionsOf(manager: EntityManager, organisationId: string): SelectQueryBuilder<Position> {
    return manager
      .createQueryBuilder(Position, 'p')
      .leftJoinAndMapOne('p.replacesPerson', Employee, 'e', 'e.id = p.replacesEmployeeId')
      .select('p')
      .addSelect(['e.id', 'e.firstName', 'e.lastName'])
      .where('p.organisationId = :organisationId', { organisationId });
  }
}

function toPositionRecord(position: Position): PositionRecord {
  const { replacesPerson, ...columns } = position as Position & { replacesPerson?: Employee };
  return {
    position: Object.assign(new Position(), columns),
    replacesPerson: replacesPerson
      ? { id: replacesPerson.id, firstName: replacesPerson.firstName, lastName: replacesPerson.lastName }
      : null,
  };
}
