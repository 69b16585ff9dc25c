import { INestApplication } from '@nestjs/common';
import { EmployeeResponse } from '../../src/employees/dto/employee.response';
import { RatingResponse } from '../../src/ratings/dto/rating.response';
import { SkillResponse } from '../../src/skills/dto/skill.response';
import { apiClient } from './api-client';
import { TestTenant } from './app';

let sequence = 0;

/** A unique suffix, so factory rows never collide on personnelNumber, businessEmail or skill name. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Sends a POST that must answer 201 and returns its `data`; anything else throws with the body. */
async function created<T>(app: INestApplication, tenant: TestTenant, path: string, body: object): Promise<T> {
  const response = await apiClient(
    () => app,
    () => tenant,
  ).post<T>(path, body);
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** POST /employees with valid defaults; asserts the 201 and returns the Employee. */
export function createEmployee(
  app: INestApplication,
  tenant: TestTenant,
  fields: Record<string, unknown> = {},
): Promise<EmployeeResponse> {
  const id = unique('p');
  return created(app, tenant, '/employees', {
    personnelNumber: id,
    firstName: 'Ada',
    lastName: 'Lovelace',
    businessEmail: `${id}@example.com`,
    ...fields,
  });
}

/** POST /skills with a unique name; asserts the 201 and returns the Skill. */
export function createSkill(
  app: INestApplication,
  tenant: TestTenant,
  fields: Record<string, unknown> = {},
): Promise<SkillResponse> {
  return created(app, tenant, '/skills', { name: unique('Skill'), ...fields });
}

/** POST /employees/{id}/ratings; asserts the 201 and returns the Rating. */
export function rate(
  app: INestApplication,
  tenant: TestTenant,
  employeeId: string,
  skillId: string,
  fields: Record<string, unknown> = {},
): Promise<RatingResponse> {
  return created(app, tenant, `/employees/${employeeId}/ratings`, {
    skillId,
    score: 3,
    ratingType: 'MANAGER_EVALUATION',
    ...fields,
  });
}
