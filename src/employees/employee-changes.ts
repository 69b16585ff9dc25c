import { newId } from '../database/uuid';
import { changesBetween } from '../events/changes';
import type { PublishedEvent } from '../events/domain-events';
import { toDateOrNull } from '../validation/iso-date-time';
import { CreateEmployeeDto } from './dto/create-employee.dto';
import { toEmployeeResponse } from './dto/employee.response';
import { UpdateEmployeeDto } from './dto/update-employee.dto';
import { Employee } from './entities/employee.entity';

/** The employee a POST /employees body (or a bulk item that matches none) creates, with its defaults. */
export function newEmployee(organisationId: string, input: CreateEmployeeDto, now: Date): Employee {
  return {
    id: newId(),
    organisationId,
    personnelNumber: input.personnelNumber,
    firstName: input.firstName,
    lastName: input.lastName,
    businessEmail: input.businessEmail,
    title: input.title ?? null,
    gender: input.gender ?? null,
    departmentId: input.departmentId ?? null,
    hiredAt: toDateOrNull(input.hiredAt) ?? null,
    leftAt: null,
    isHRTeamMember: input.isHRTeamMember ?? false,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

/** The fields an employee event without `changes` changed: a DELETE's employee.deactivated sets leftAt. */
export const EMPLOYEE_IMPLIED_CHANGES: Record<string, string[]> = { 'employee.deactivated': ['leftAt'] };

/** Copies the supplied fields of a PATCH onto the employee; absent (undefined) fields keep their value. */
export function applyChanges(employee: Employee, input: UpdateEmployeeDto): void {
  const { hiredAt, leftAt, ...plainFields } = input;
  for (const [field, value] of Object.entries(plainFields)) {
    if (value !== undefined) Object.assign(employee, { [field]: value });
  }
  if (hiredAt !== undefined) employee.hiredAt = toDateOrNull(hiredAt) ?? null;
  if (leftAt !== undefined) employee.leftAt = toDateOrNull(leftAt) ?? null;
}

/**
 * The events of an applied change, as PATCH emits them: employee.updated with what it altered, then
 * employee.deactivated when it deactivates. `before` is the locked row as read, so `changes` costs no query.
 */
export function updateEvents(before: Employee, after: Employee, occurredAt: Date): PublishedEvent[] {
  const data = toEmployeeResponse(after);
  const updated: PublishedEvent = {
    name: 'employee.updated',
    data,
    occurredAt,
    changes: changesBetween(toEmployeeResponse(before), data),
  };
  return before.leftAt === null && after.leftAt !== null
    ? [updated, { name: 'employee.deactivated', data, occurredAt }]
    : [updated];
}
