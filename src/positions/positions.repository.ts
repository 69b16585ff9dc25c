import { Injectable } from '@nestjs/common';
import { EntityManager, In, ObjectLiteral, QueryDeepPartialEntity, SelectQueryBuilder } from 'typeorm';
import { ListOrder, ListRows, PageWindow } from '../common/cursor';
import { bySkillName } from '../common/latest-rating';
import { SqlConditions } from '../common/sql-conditions';
import { Database } from '../database/database';
import { Employee } from '../employees/entities/employee.entity';
import { Skill } from '../skills/entities/skill.entity';
import { ListPositionsQuery } from './dto/list-positions.query';
import { PersonReference, PositionRecord, ReplacementRecord } from './dto/position.response';
import { PositionReplacement } from './entities/position-replacement.entity';
import { PositionRequiredSkill } from './entities/position-required-skill.entity';
import { Position } from './entities/position.entity';
import { StoredPosition } from './import/import-plan';
import { RequiredSkill } from './skills-gap';

/** Rows per INSERT, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_CHUNK = 1000;

/** Positions are listed oldest first. */
const POSITION_ORDER: ListOrder<PositionRecord> = {
  columns: ['p.created_at', 'p.id'],
  descending: false,
  keyOf: (record) => [record.position.createdAt, record.position.id],
};

type Row<T> = Omit<T, 'organisationId'>;

/**
 * All SQL of positions: the reads of the API, and the reads and writes of the import. Each read loads a
 * whole set at once (a page, or every child of a set of positions), so a list or a detail costs a fixed
 * number of queries whatever its size.
 */
@Injectable()
export class PositionsRepository {
  constructor(private readonly database: Database) {}

  /** One window in list order (createdAt, id) and, in page mode, the total: two queries, one in cursor mode. */
  async findPage(
    organisationId: string,
    query: ListPositionsQuery,
    window: PageWindow,
    manager?: EntityManager,
  ): Promise<ListRows<PositionRecord>> {
    const builder = this.positionsOf(organisationId, manager)
      .orderBy('p.createdAt', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .offset(window.offset)
      .limit(window.fetch);
    if (query.status) builder.andWhere('p.status = :status', { status: query.status });
    if (window.after) {
      const keyset = new SqlConditions().after(POSITION_ORDER.columns, POSITION_ORDER.descending, window.after);
      const { sql, parameters } = keyset.named('after');
      builder.andWhere(sql, parameters);
    }
    const [positions, total] = window.counted ? await builder.getManyAndCount() : [await builder.getMany(), null];
    return { rows: positions.map(toPositionRecord), order: POSITION_ORDER, total };
  }

  async findById(organisationId: string, id: string, manager?: EntityManager): Promise<PositionRecord | null> {
    const position = await this.positionsOf(organisationId, manager).andWhere('p.id = :id', { id }).getOne();
    return position ? toPositionRecord(position) : null;
  }

  /** The given positions, in list order. */
  async findByIds(organisationId: string, ids: string[], manager?: EntityManager): Promise<PositionRecord[]> {
    if (ids.length === 0) return [];
    const positions = await this.positionsOf(organisationId, manager)
      .andWhere('p.id IN (:...ids)', { ids })
      .orderBy('p.createdAt', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .getMany();
    return positions.map(toPositionRecord);
  }

  /** The required skills of each position, by position id, in the one skill-name order. */
  async requiredSkillsOf(
    organisationId: string,
    positionIds: string[],
    manager?: EntityManager,
  ): Promise<Map<string, RequiredSkill[]>> {
    const byPositionId = new Map<string, RequiredSkill[]>(positionIds.map((id) => [id, []]));
    if (positionIds.length === 0) return byPositionId;
    const rows = await this.database.manager(manager).query<Array<RequiredSkill & { positionId: string }>>(
      `SELECT rs.position_id AS "positionId", rs.skill_id AS "skillId", s.name AS "skillName",
              rs.minimum_rating AS "minimumRating"
         FROM position_required_skills rs
         JOIN skills s ON s.id = rs.skill_id
        WHERE rs.organisation_id = $1 AND rs.position_id = ANY($2::uuid[])
        ORDER BY ${bySkillName('s.name', 's.id')}`,
      [organisationId, positionIds],
    );
    for (const { positionId, ...skill } of rows) byPositionId.get(positionId)?.push(skill);
    return byPositionId;
  }

  /** The possible replacements of one position with their candidates, ordered by readyAt, then id. */
  async replacementsOf(
    organisationId: string,
    positionId: string,
    manager?: EntityManager,
  ): Promise<ReplacementRecord[]> {
    const rows = await this.database
      .manager(manager)
      .query<Array<Omit<ReplacementRecord, 'candidate'> & PersonReference & { candidateId: string }>>(
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

  /** Imports of one organisation wait for each other until the transaction ends, so two new refs never race. */
  async lockImports(organisationId: string, manager?: EntityManager): Promise<void> {
    await this.database
      .manager(manager)
      .query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`positions-import:${organisationId}`]);
  }

  /** The ids of the organisation's employees with these personnelNumbers, by personnelNumber. */
  async employeeIdsByPersonnelNumber(
    organisationId: string,
    personnelNumbers: string[],
    manager?: EntityManager,
  ): Promise<Map<string, string>> {
    if (personnelNumbers.length === 0) return new Map();
    const employees = await this.database.manager(manager).find(Employee, {
      select: { id: true, personnelNumber: true },
      where: { organisationId, personnelNumber: In(personnelNumbers) },
    });
    return new Map(employees.map((employee) => [employee.personnelNumber, employee.id]));
  }

  /** The organisation's skills with these lower-cased names, by lower-cased name. */
  async skillsByLowerName(
    organisationId: string,
    lowerNames: string[],
    manager?: EntityManager,
  ): Promise<Map<string, Skill>> {
    if (lowerNames.length === 0) return new Map();
    const skills = await this.database
      .manager(manager)
      .createQueryBuilder(Skill, 's')
      .where('s.organisationId = :organisationId', { organisationId })
      .andWhere('lower(s.name) = ANY(:lowerNames)', { lowerNames })
      .getMany();
    return new Map(skills.map((skill) => [skill.name.toLowerCase(), skill]));
  }

  /** The positions with these refs, with their children, by ref: three queries. */
  async findStoredByRefs(
    organisationId: string,
    refs: string[],
    manager?: EntityManager,
  ): Promise<Map<string, StoredPosition>> {
    const database = this.database.manager(manager);
    const positions = await database
      .createQueryBuilder(Position, 'p')
      .where('p.organisationId = :organisationId', { organisationId })
      .andWhere('p.ref = ANY(:refs)', { refs })
      .getMany();
    const stored = new Map<string, StoredPosition>(
      positions.map((position) => [position.id, { position, requiredSkills: [], replacements: [] }]),
    );
    if (positions.length) {
      const ids = [...stored.keys()];
      const requiredSkills = await database
        .createQueryBuilder(PositionRequiredSkill, 'rs')
        .where('rs.organisationId = :organisationId AND rs.positionId = ANY(:ids)', { organisationId, ids })
        .getMany();
      const replacements = await database
        .createQueryBuilder(PositionReplacement, 'r')
        .where('r.organisationId = :organisationId AND r.positionId = ANY(:ids)', { organisationId, ids })
        .getMany();
      for (const skill of requiredSkills) stored.get(skill.positionId)?.requiredSkills.push(skill);
      for (const replacement of replacements) stored.get(replacement.positionId)?.replacements.push(replacement);
    }
    return new Map([...stored.values()].map((each) => [each.position.ref, each]));
  }

  async insertPositions(organisationId: string, positions: Row<Position>[], manager?: EntityManager) {
    await this.insertInChunks(organisationId, Position, positions, manager);
  }

  async updatePosition(
    organisationId: string,
    id: string,
    changes: QueryDeepPartialEntity<Position>,
    manager?: EntityManager,
  ): Promise<void> {
    await this.database.manager(manager).update(Position, { organisationId, id }, changes);
  }

  async deleteRequiredSkills(organisationId: string, positionIds: string[], manager?: EntityManager) {
    if (positionIds.length === 0) return;
    await this.database.manager(manager).delete(PositionRequiredSkill, { organisationId, positionId: In(positionIds) });
  }

  async insertRequiredSkills(organisationId: string, skills: Row<PositionRequiredSkill>[], manager?: EntityManager) {
    await this.insertInChunks(organisationId, PositionRequiredSkill, skills, manager);
  }

  async deleteReplacements(organisationId: string, ids: string[], manager?: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    await this.database.manager(manager).delete(PositionReplacement, { organisationId, id: In(ids) });
  }

  async updateReplacement(
    organisationId: string,
    id: string,
    changes: QueryDeepPartialEntity<PositionReplacement>,
    manager?: EntityManager,
  ): Promise<void> {
    await this.database.manager(manager).update(PositionReplacement, { organisationId, id }, changes);
  }

  async insertReplacements(organisationId: string, replacements: Row<PositionReplacement>[], manager?: EntityManager) {
    await this.insertInChunks(organisationId, PositionReplacement, replacements, manager);
  }

  private async insertInChunks<T extends ObjectLiteral & { organisationId: string }>(
    organisationId: string,
    target: new () => T,
    rows: Row<T>[],
    manager?: EntityManager,
  ): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      const chunk = rows.slice(start, start + INSERT_CHUNK).map((row) => ({ ...row, organisationId }));
      await this.database.manager(manager).insert(target, chunk as QueryDeepPartialEntity<T>[]);
    }
  }

  private positionsOf(organisationId: string, manager?: EntityManager): SelectQueryBuilder<Position> {
    return this.database
      .manager(manager)
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
