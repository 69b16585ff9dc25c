import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { TestTenant } from './app';

let sequence = 0;

/** A unique suffix, so factory rows never collide on personnelNumber, businessEmail or skill name. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
}

/** POST /employees with valid defaults; asserts the 201 and returns the Employee. */
export async function createEmployee(
  app: INestApplication,
  tenant: TestTenant,
  fields: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const id = unique('p');
  const response = await request(app.getHttpServer())
    .post('/api/v1/employees')
    .set('Authorization', tenant.bearer)
    .send({ personnelNumber: id, firstName: 'Ada', lastName: 'Lovelace', businessEmail: `${id}@example.com`, ...fields });
  if (response.status !== 201) throw new Error(`createEmployee: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** POST /skills with a unique name; asserts the 201 and returns the Skill. */
export async function createSkill(
  app: INestApplication,
  tenant: TestTenant,
  fields: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const response = await request(app.getHttpServer())
    .post('/api/v1/skills')
    .set('Authorization', tenant.bearer)
    .send({ name: unique('Skill'), ...fields });
  if (response.status !== 201) throw new Error(`createSkill: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** POST /employees/{id}/ratings; asserts the 201 and returns the Rating. */
export async function rate(
  app: INestApplication,
  tenant: TestTenant,
  employeeId: string,
  skillId: string,
  fields: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const response = await request(app.getHttpServer())
    .post(`/api/v1/employees/${employeeId}/ratings`)
    .set('Authorization', tenant.bearer)
    .send({ skillId, score: 3, ratingType: 'MANAGER_EVALUATION', ...fields });
  if (response.status !== 201) throw new Error(`rate: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}
