import { readFile } from 'node:fs/promises';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OrganisationsService } from '../../auth/organisations.service';
import { Database } from '../../database/database';
import { newId } from '../../database/uuid';
import { WriteContext } from '../../database/write-context';
import { EmployeesRepository } from '../../employees/employees.repository';
import { ValidationError } from '../../errors/errors';
import { DomainEvents } from '../../events/domain-events';
import { SkillResolver } from '../../skills/resolve/skill-resolver';
import { SkillsRepository } from '../../skills/skills.repository';
import { PositionsRepository } from '../positions.repository';
import { PositionsService } from '../positions.service';
import { DesiredPosition, diffReplacements, PlannedPosition, planImport, StoredPosition } from './import-plan';
import { parsePositionsFile, PositionEntry } from './positions-file';
import { referencedPersonnelNumbers, referencedSkillNames, resolveReferences } from './resolve-references';

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
    private readonly employees: EmployeesRepository,
    private readonly skills: SkillsRepository,
    private readonly resolver: SkillResolver,
    private readonly responses: PositionsService,
    private readonly events: DomainEvents,
  ) {}

  async importFile(organisationReference: string, path: string, write: WriteContext): Promise<ImportSummary> {
    const entries = parsePositionsFile(await readPositionsFile(path));
    const organisation = await this.organisations.findByIdOrName(organisationReference);
    return this.import(organisation.id, entries, write);
  }

  async import(organisationId: string, entries: PositionEntry[], write: WriteContext): Promise<ImportSummary> {
    return this.database.transaction(async (manager) => {
      await this.positions.lockImports(organisationId, manager);
      const desired = await this.desiredPositions(organisationId, entries, manager);
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
    }, write);
  }

  /** The file's positions with their references turned into ids: two queries, whatever the file's size. */
  private async desiredPositions(
    organisationId: string,
    entries: PositionEntry[],
    manager: EntityManager,
  ): Promise<DesiredPosition[]> {
    const employeeIdByPersonnelNumber = await this.employees.idsByPersonnelNumber(
      organisationId,
      referencedPersonnelNumbers(entries),
      manager,
    );
    const resolutions = await this.resolver.resolve(organisationId, referencedSkillNames(entries), {
      suggest: false,
      manager,
    });
    const ids = resolutions.flatMap(({ skill }) => (skill ? [skill.id] : []));
    const skillById = new Map(
      (await this.skills.findByIds(organisationId, ids, manager)).map((skill) => [skill.id, skill]),
    );
    return resolveReferences(entries, {
      employeeIdByPersonnelNumber,
      skillByName: new Map(resolutions.map((resolution) => [resolution.name, resolution])),
      skillById,
    });
  }

  /** Applies the plan, one statement per table and kind of change; returns the ids of the changed positions, in file order. */
  private async write(
    organisationId: string,
    plan: PlannedPosition[],
    now: Date,
    manager: EntityManager,
  ): Promise<string[]> {
    const changed = positionsToWrite(plan);
    const created = changed.filter((each) => each.stored === null);
    const updated = changed.filter((each) => each.stored !== null);
    await this.positions.insertPositions(
      organisationId,
      created.map(({ id, desired }) => ({ ...desired, id })),
      now,
      manager,
    );
    await this.positions.updatePositions(
      organisationId,
      updated.map(({ id, desired }) => ({ ...desired, id })),
      now,
      manager,
    );

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
    await this.positions.updateReplacements(
      organisationId,
      replacementChanges.flatMap((each) => each.update),
      now,
      manager,
    );
    await this.positions.insertReplacements(
      organisationId,
      replacementChanges.flatMap(({ positionId, insert }) =>
        insert.map((replacement) => ({ ...replacement, id: newId(), positionId })),
      ),
      now,
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

/** The created positions (with a new id) and the updated ones, in file order. */
function positionsToWrite(plan: PlannedPosition[]): PositionToWrite[] {
  return plan.flatMap((each): PositionToWrite[] => {
    if (each.action === 'create') return [{ id: newId(), desired: each.desired, stored: null }];
    if (each.action === 'update') return [{ id: each.stored.position.id, desired: each.desired, stored: each.stored }];
    return [];
  });
}

async function readPositionsFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ValidationError(`Cannot read the positions file ${path}: ${(error as Error).message}`);
  }
}
