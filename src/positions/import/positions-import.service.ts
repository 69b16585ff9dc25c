import { Injectable } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { DataSource, EntityManager, In, ObjectLiteral, QueryDeepPartialEntity } from 'typeorm';
import { OrganisationsService } from '../../auth/organisations.service';
import { FieldError, ValidationError } from '../../common/errors';
import { newId } from '../../common/uuid';
import { Employee } from '../../employees/entities/employee.entity';
import { DomainEvents } from '../../events/domain-events';
import { Skill } from '../../skills/entities/skill.entity';
import { Position } from '../entities/position.entity';
import { PositionReplacement } from '../entities/position-replacement.entity';
import { PositionRequiredSkill } from '../entities/position-required-skill.entity';
import { PositionsService } from '../positions.service';
import { DesiredPosition, diffReplacements, PlannedPosition, planImport, StoredPosition } from './import-plan';
import { parsePositionsFile, PositionEntry, problem, throwIfAny } from './positions-file';

export interface ImportSummary {
  created: number;
  updated: number;
  unchanged: number;
}

/** A created position (no stored state yet) or an updated one. */
interface PositionToWrite {
  id: string;
  desired: DesiredPosition;
  stored: StoredPosition | null;
}

/** Rows per INSERT, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_CHUNK = 1000;

/**
 * Creates or updates positions from a file, keyed by `ref`: all of the file in one transaction, or
 * nothing. Positions absent from the file are left as they are.
 */
@Injectable()
export class PositionsImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organisations: OrganisationsService,
    private readonly positions: PositionsService,
    private readonly events: DomainEvents,
  ) {}

  async importFile(organisationReference: string, path: string): Promise<ImportSummary> {
    const entries = parsePositionsFile(await readPositionsFile(path));
    const organisation = await this.organisations.findByIdOrName(organisationReference);
    return this.import(organisation.id, entries);
  }

  async import(organisationId: string, entries: PositionEntry[]): Promise<ImportSummary> {
    return this.dataSource.transaction(async (manager) => {
      // Imports of one organisation run one after another, so two new refs never race to the unique index.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`positions-import:${organisationId}`]);
      const desired = await this.resolveReferences(manager, organisationId, entries);
      const plan = planImport(desired, await this.loadStored(manager, organisationId, desired));
      const now = new Date();
      const changedIds = await this.write(manager, organisationId, plan, now);
      await this.publishChanges(manager, organisationId, changedIds, now);
      return {
        created: plan.filter((each) => each.action === 'create').length,
        updated: plan.filter((each) => each.action === 'update').length,
        unchanged: plan.filter((each) => each.action === 'unchanged').length,
      };
    });
  }

  /** Turns personnelNumbers and skill names into ids; every unknown one is named, and nothing is written. */
  private async resolveReferences(
    manager: EntityManager,
    organisationId: string,
    entries: PositionEntry[],
  ): Promise<DesiredPosition[]> {
    const personnelNumbers = [
      ...new Set(
        entries.flatMap((entry) => [
          ...(entry.replacesPersonnelNumber ? [entry.replacesPersonnelNumber] : []),
          ...entry.possibleReplacements.map((replacement) => replacement.candidatePersonnelNumber),
        ]),
      ),
    ];
    const skillNames = [...new Set(entries.flatMap((entry) => entry.requiredSkills.map((s) => s.skillName.toLowerCase())))];
    const employees = personnelNumbers.length
      ? await manager.find(Employee, {
          select: { id: true, personnelNumber: true },
          where: { organisationId, personnelNumber: In(personnelNumbers) },
        })
      : [];
    const skills = skillNames.length
      ? await manager
          .createQueryBuilder(Skill, 's')
          .where('s.organisationId = :organisationId', { organisationId })
          .andWhere('lower(s.name) = ANY(:skillNames)', { skillNames })
          .getMany()
      : [];
    const employeeIdByNumber = new Map(employees.map((employee) => [employee.personnelNumber, employee.id]));
    const skillByName = new Map(skills.map((skill) => [skill.name.toLowerCase(), skill]));

    // An unknown reference is recorded and resolves to '' for now; throwIfAny refuses the file before any write.
    const problems: FieldError[] = [];
    const employeeId = (personnelNumber: string, field: string): string => {
      const id = employeeIdByNumber.get(personnelNumber);
      if (!id) problems.push(problem(field, `names unknown employee personnelNumber "${personnelNumber}"`));
      return id ?? '';
    };
    const desired = entries.map((entry, index): DesiredPosition => ({
      ref: entry.ref,
      name: entry.name,
      description: entry.description ?? null,
      department: entry.department ?? null,
      status: entry.status,
      mustBeFilledBy: entry.mustBeFilledBy ? new Date(entry.mustBeFilledBy) : null,
      replacesEmployeeId: entry.replacesPersonnelNumber
        ? employeeId(entry.replacesPersonnelNumber, `[${index}].replacesPersonnelNumber`)
        : null,
      requiredSkills: entry.requiredSkills.map(({ skillName, minimumRating }, skillIndex) => {
        const field = `[${index}].requiredSkills[${skillIndex}]`;
        const skill = skillByName.get(skillName.toLowerCase());
        if (!skill) problems.push(problem(`${field}.skillName`, `names unknown skill "${skillName}"`));
        else if (minimumRating < skill.ratingScaleMin || minimumRating > skill.ratingScaleMax) {
          problems.push(
            problem(
              `${field}.minimumRating`,
              `${minimumRating} is outside the rating scale ${skill.ratingScaleMin}..${skill.ratingScaleMax} of skill "${skill.name}"`,
            ),
          );
        }
        return { skillId: skill?.id ?? '', minimumRating };
      }),
      replacements: entry.possibleReplacements.map(({ candidatePersonnelNumber, readyAt, status }, candidateIndex) => ({
        candidateEmployeeId: employeeId(
          candidatePersonnelNumber,
          `[${index}].possibleReplacements[${candidateIndex}].candidatePersonnelNumber`,
        ),
        readyAt: new Date(readyAt),
        status,
      })),
    }));
    throwIfAny(problems);
    return desired;
  }

  /** The positions of the file that already exist, with their children: three queries. */
  private async loadStored(
    manager: EntityManager,
    organisationId: string,
    desired: DesiredPosition[],
  ): Promise<Map<string, StoredPosition>> {
    const refs = desired.map((each) => each.ref);
    const positions = await manager
      .createQueryBuilder(Position, 'p')
      .where('p.organisationId = :organisationId', { organisationId })
      .andWhere('p.ref = ANY(:refs)', { refs })
      .getMany();
    const stored = new Map<string, StoredPosition>(
      positions.map((position) => [position.id, { position, requiredSkills: [], replacements: [] }]),
    );
    if (positions.length) {
      const ids = [...stored.keys()];
      const requiredSkills = await manager
        .createQueryBuilder(PositionRequiredSkill, 'rs')
        .where('rs.organisationId = :organisationId AND rs.positionId = ANY(:ids)', { organisationId, ids })
        .getMany();
      const replacements = await manager
        .createQueryBuilder(PositionReplacement, 'r')
        .where('r.organisationId = :organisationId AND r.positionId = ANY(:ids)', { organisationId, ids })
        .getMany();
      for (const skill of requiredSkills) stored.get(skill.positionId)?.requiredSkills.push(skill);
      for (const replacement of replacements) stored.get(replacement.positionId)?.replacements.push(replacement);
    }
    return new Map([...stored.values()].map((each) => [each.position.ref, each]));
  }

  /** Applies the plan; returns the ids of the created and updated positions, in file order. */
  private async write(
    manager: EntityManager,
    organisationId: string,
    plan: PlannedPosition[],
    now: Date,
  ): Promise<string[]> {
    const changed: PositionToWrite[] = [];
    for (const each of plan) {
      if (each.action === 'create') changed.push({ id: newId(), desired: each.desired, stored: null });
      if (each.action === 'update') changed.push({ id: each.stored.position.id, desired: each.desired, stored: each.stored });
    }
    const created = changed.filter((each) => each.stored === null);
    const updated = changed.filter((each) => each.stored !== null);

    await insertInChunks(
      manager,
      Position,
      created.map(({ id, desired }) => ({ id, organisationId, ref: desired.ref, ...positionColumns(desired), createdAt: now, updatedAt: now })),
    );
    for (const { id, desired } of updated) {
      await manager.update(Position, { id, organisationId }, { ...positionColumns(desired), updatedAt: now });
    }

    // Required skills carry no id of their own, so a changed position's list is simply rewritten.
    if (updated.length) {
      await manager.delete(PositionRequiredSkill, { organisationId, positionId: In(updated.map((each) => each.id)) });
    }
    await insertInChunks(
      manager,
      PositionRequiredSkill,
      changed.flatMap(({ id, desired }) => desired.requiredSkills.map((skill) => ({ positionId: id, organisationId, ...skill }))),
    );

    const replacementChanges = changed.map(({ id, desired, stored }) => ({
      positionId: id,
      ...diffReplacements(stored?.replacements ?? [], desired.replacements),
    }));
    const deleteIds = replacementChanges.flatMap((each) => each.deleteIds);
    if (deleteIds.length) await manager.delete(PositionReplacement, { organisationId, id: In(deleteIds) });
    for (const { id, readyAt, status } of replacementChanges.flatMap((each) => each.update)) {
      await manager.update(PositionReplacement, { id, organisationId }, { readyAt, status, updatedAt: now });
    }
    await insertInChunks(
      manager,
      PositionReplacement,
      replacementChanges.flatMap(({ positionId, insert }) =>
        insert.map((replacement) => ({ id: newId(), organisationId, positionId, ...replacement, createdAt: now, updatedAt: now })),
      ),
    );
    return changed.map((each) => each.id);
  }

  /** position.updated for each created or changed position, inside the transaction, so the outbox commits with it. */
  private async publishChanges(manager: EntityManager, organisationId: string, ids: string[], now: Date): Promise<void> {
    const responses = await this.positions.responsesFor(organisationId, ids, manager);
    const responseById = new Map(responses.map((response) => [response.id, response]));
    for (const id of ids) {
      await this.events.publish(manager, organisationId, 'position.updated', responseById.get(id)!, now);
    }
  }
}

function positionColumns(desired: DesiredPosition) {
  const { name, description, department, status, mustBeFilledBy, replacesEmployeeId } = desired;
  return { name, description, department, status, mustBeFilledBy, replacesEmployeeId };
}

async function insertInChunks<T extends ObjectLiteral>(
  manager: EntityManager,
  target: new () => T,
  rows: QueryDeepPartialEntity<T>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await manager.insert(target, rows.slice(start, start + INSERT_CHUNK));
  }
}

async function readPositionsFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ValidationError(`Cannot read the positions file ${path}: ${(error as Error).message}`);
  }
}
