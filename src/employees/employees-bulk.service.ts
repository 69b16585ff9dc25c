import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BulkItemOutcome, BulkResult, failItemOn, PlannedChange, validateItem, writeChanges } from '../common/bulk';
import { ConflictError } from '../common/errors';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { DomainEvents, PublishedEvent } from '../events/domain-events';
import { CreateEmployeeDto } from './dto/create-employee.dto';
import { toEmployeeResponse } from './dto/employee.response';
import { UpdateEmployeeDto } from './dto/update-employee.dto';
import { applyChanges, newEmployee, updateEvents } from './employee-changes';
import { EMPLOYEE_UNIQUE_MESSAGES, EmployeesRepository } from './employees.repository';
import { Employee } from './entities/employee.entity';

type Change = PlannedChange<Employee>;

const DUPLICATE_PERSONNEL_NUMBER = 'An earlier item of this request has this personnelNumber';

/**
 * POST /employees/bulk: each item is a POST or a PATCH, matched by personnelNumber, checked by the same DTOs
 * and rules as those, written with a few set-based statements in one transaction (writeChanges: one by one,
 * each in a savepoint, only when the database refuses the batch).
 */
@Injectable()
export class EmployeesBulkService {
  constructor(
    private readonly database: Database,
    private readonly employees: EmployeesRepository,
    private readonly events: DomainEvents,
  ) {}

  async upsert(organisationId: string, items: unknown[], write: WriteContext): Promise<BulkResult> {
    const outcomes = items.map((_item, index) => new BulkItemOutcome(index));
    await this.database.transaction(async (manager) => {
      const numbers = [...new Set(items.map(personnelNumberOf).filter((number) => number !== undefined))];
      const existing = await this.employees.lockByPersonnelNumbers(organisationId, numbers, manager);
      const byNumber = new Map(existing.map((employee) => [employee.personnelNumber, employee]));
      const now = new Date();
      const planned = this.plan(organisationId, items, outcomes, byNumber, now);
      const applied = await this.write(organisationId, planned, manager);
      await this.events.publishMany(
        manager,
        organisationId,
        applied.flatMap((change) => eventsOf(change, now)),
      );
    }, write);
    return new BulkResult(outcomes.map((outcome) => outcome.toResponse()));
  }

  /** Validates each item, settles the unchanged and the failed, and answers the changes to write, in item order. */
  private plan(
    organisationId: string,
    items: unknown[],
    outcomes: BulkItemOutcome[],
    byNumber: Map<string, Employee>,
    now: Date,
  ): Change[] {
    const planned: Change[] = [];
    const seenNumbers = new Set<string>();
    // The lower-case businessEmail of each employee after the earlier items: a second employee with one is 409.
    const emailOwners = new Map<string, string>();
    for (const [index, item] of items.entries()) {
      const outcome = outcomes[index];
      const number = personnelNumberOf(item);
      try {
        const before = number === undefined ? undefined : byNumber.get(number);
        const input = before ? validateItem(UpdateEmployeeDto, item) : validateItem(CreateEmployeeDto, item);
        if (seenNumbers.has(number!)) throw new ConflictError(DUPLICATE_PERSONNEL_NUMBER);
        seenNumbers.add(number!);
        const after = before ? { ...before } : newEmployee(organisationId, input as CreateEmployeeDto, now);
        if (before) applyChanges(after, input);
        const owner = emailOwners.get(after.businessEmail.toLowerCase());
        if (owner !== undefined && owner !== after.id) {
          throw new ConflictError(EMPLOYEE_UNIQUE_MESSAGES.employees_business_email_key);
        }
        emailOwners.set(after.businessEmail.toLowerCase(), after.id);
        after.updatedAt = now;
        planned.push({ outcome, before: before ?? null, after });
      } catch (error) {
        if (number !== undefined) seenNumbers.add(number);
        failItemOn(outcome, error);
      }
    }
    return planned;
  }

  /** Updates go first, so a businessEmail one frees is free for an employee created in the same request. */
  private write(organisationId: string, planned: Change[], manager: EntityManager): Promise<Change[]> {
    return writeChanges(manager, planned, {
      many: async (updates, creates) => {
        const updated = await this.employees.updateMany(organisationId, updates, manager);
        await this.employees.insertMany(organisationId, creates, manager);
        return updated;
      },
      one: ({ before, after }) =>
        before
          ? this.employees.update(organisationId, after, after.updatedAt, manager)
          : this.employees.insert(organisationId, after, manager).then(() => true),
    });
  }
}

/** The item's personnelNumber when it is one (a string); the item's validation reports anything else. */
function personnelNumberOf(item: unknown): string | undefined {
  const number = (item as { personnelNumber?: unknown } | null)?.personnelNumber;
  return typeof number === 'string' ? number : undefined;
}

/** What POST (employee.created) or PATCH (employee.updated with changes, maybe employee.deactivated) emits. */
function eventsOf({ before, after }: Change, now: Date): PublishedEvent[] {
  if (!before) return [{ name: 'employee.created', data: toEmployeeResponse(after), occurredAt: now }];
  return updateEvents(before, after, now);
}
