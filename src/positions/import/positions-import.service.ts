import { readFile } from 'node:fs/promises';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OrganisationsService } from '../../auth/organisations.service';
import { FieldError, ValidationError } from '../../common/errors';
import { newId } from '../../common/uuid';
import { Database } from '../../database/database';
import { DomainEvents } from '../../events/domain-events';
import { PositionsRepository } from '../positions.repository';
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

/**
 * Creates or updates positions from a file, keyed by `ref`: all of the file in one transaction, or
 * nothing. Positions absent from the file are left as they are.
 */
@Injectable()
export class PositionsImportService {
  constructor(
    private readonly database: Database,
    private readonly organisations: OrganisationsService,
    private readonly positions: PositionsRepository,
    private readonly responses: PositionsService,
    private readonly events: DomainEvents,
  ) {}

  async importFile(organisationReference: string, path: string): Promise<ImportSummary> {
    const entries = parsePositionsFile(await readPositionsFile(path));
    const organisation = await this.organisations.findByIdOrName(organisationReference);
    return this.import(organisation.id, entries);
  }

  async import(organisationId: string, entries: PositionEntry[]): Promise<ImportSummary> {
    return this.database.transaction(async (manager) => {
      await this.positions.lockImports(organisationId, manager);
      const desired = await this.resolveReferences(organisationId, entries, manager);
      const stored = await this.positions.findStoredByRefs(
        organisationId,
        desired.map((each) => each.ref),
        manager,
      );
      const plan = planImport(desired, stored);
      const now = new Date();
      const changedIds = await this.write(organisationId, plan, now, manager);
      await this.publishChanges(organisationId, changedIds, now, manager);
      return {
        created: plan.filter((each) => each.action === 'create').length,
        updated: plan.filter((each) => each.action === 'update').length,
        unchanged: plan.filter((each) => each.action === 'unchanged').length,
      };
    });
  }

  /** Turns personnelNumbers and skill names into ids; every unknown one is named, and nothing is written. */
  private async resolveReferences(
    organisationId: string,
    entries: PositionEntry[],
    manager: EntityManager,
  ): Promise<DesiredPosition[]> {
    const personnelNumbers = [
      ...new Set(
        entries.flatMap((entry) => [
          ...(entry.replacesPersonnelNumber ? [entry.replacesPersonnelNumber] : []),
          ...entry.possibleReplacements.map((replacement) => replacement.candidatePersonnelNumber),
        ]),
      ),
    ];
    const skillNames = [
      ...new Set(entries.flatMap((entry) => entry.requiredSkills.map((s) => s.skillName.toLowerCase()))),
    ];
    const employeeIdByNumber = await this.positions.employeeIdsByPersonnelNumber(
      organisationId,
      personnelNumbers,
      manager,
    );
    const skillByName = await this.positions.skillsByLowerName(organisationId, skillNames, manager);

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

  /** Applies the plan; returns the ids of the created and updated positions, in file order. */
  private async write(
    organisationId: string,
    plan: PlannedPosition[],
    now: Date,
    manager: EntityManager,
  ): Promise<string[]> {
    const changed: PositionToWrite[] = [];
    for (const each of plan) {
      if (each.action === 'create') changed.push({ id: newId(), desired: each.desired, stored: null });
      if (each.action === 'update')
        changed.push({ id: each.stored.position.id, desired: each.desired, stored: each.stored });
    }
    const created = changed.filter((each) => each.stored === null);
    const updated = changed.filter((each) => each.stored !== null);

    await this.positions.insertPositions(
      organisationId,
      created.map(({ id, desired }) => ({
        id,
        ref: desired.ref,
        ...positionColumns(desired),
        createdAt: now,
        updatedAt: now,
      })),
      manager,
    );
    for (const { id, desired } of updated) {
      await this.positions.updatePosition(organisationId, id, { ...positionColumns(desired), updatedAt: now }, manager);
    }

    // Required skills carry no id of their own, so a changed position's list is simply rewritten.
    await this.positions.deleteRequiredSkills(
      organisationId,
      updated.map((each) => each.id),
      manager,
    );
    await this.positions.insertRequiredSkills(
      organisationId,
      changed.flatMap(({ id, desired }) => desired.requiredSkills.map((skill) => ({ positionId: id, ...skill }))),
      manager,
    );

    const replacementChanges = changed.map(({ id, desired, stored }) => ({
      positionId: id,
      ...diffReplacements(stored?.replacements ?? [], desired.replacements),
    }));
    await this.positions.deleteReplacements(
      organisationId,
      replacementChanges.flatMap((each) => each.deleteIds),
      manager,
    );
    for (const { id, readyAt, status } of replacementChanges.flatMap((each) => each.update)) {
      await this.positions.updateReplacement(organisationId, id, { readyAt, status, updatedAt: now }, manager);
    }
    await this.positions.insertReplacements(
      organisationId,
      replacementChanges.flatMap(({ positionId, insert }) =>
        insert.map((replacement) => ({
          id: newId(),
          positionId,
          ...replacement,
          createdAt: now,
          updatedAt: now,
        })),
      ),
      manager,
    );
    return changed.map((each) => each.id);
  }

  /** position.updated for each created or changed position, inside the transaction, so the outbox commits with it. */
  private async publishChanges(
    organisationId: string,
    ids: string[],
    now: Date,
    manager: EntityManager,
  ): Promise<void> {
    const responses = await this.responses.responsesFor(organisationId, ids, manager);
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

async function readPositionsFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ValidationError(`Cannot read the positions file ${path}: ${(error as Error).message}`);
  }
}
