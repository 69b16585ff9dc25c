import type { EntityManager } from 'typeorm';
import { NotFoundError } from '../common/errors';
import { Employee } from './entities/employee.entity';

/**
 * The employee with this id in this organisation, or 404. Shared by the employees and ratings
 * services (a plain function, so the two modules need not import each other).
 */
export async function findEmployeeOrFail(
  manager: EntityManager,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<Employee> {
  const query = manager
    .createQueryBuilder(Employee, 'employee')
    .where('employee.organisation_id = :organisationId AND employee.id = :id', { organisationId, id });
  if (options.forUpdate) query.setLock('pessimistic_write');
  const employee = await query.getOne();
  if (!employee) throw new NotFoundError('Employee');
  return employee;
}
