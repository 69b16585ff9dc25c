import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page } from '../common/pagination';
import { EmployeeFields, EmployeeResponse, toEmployeeResponse } from './dto/employee.response';
import { ListEmployeesQuery } from './dto/list-employees.query';
import { employeeColumns } from './employee-columns';
import { employeeSearchCondition } from './employee-search';
import { escapeLikePattern } from './like-pattern';

/**
 * One page of GET /employees and its exact total, in raw SQL. The page reads the ids of the requested
 * window first (an index-only scan of employees_list_idx when unfiltered, so a deep OFFSET skips index
 * entries rather than heap rows) and then only those rows. Page and count run concurrently on two pool
 * connections.
 */
@Injectable()
export class EmployeesListReader {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(organisationId: string, query: ListEmployeesQuery): Promise<Page<EmployeeResponse>> {
    const filters = ['e.organisation_id = $1'];
    const parameters: unknown[] = [organisationId];
    if (query.search !== undefined) {
      parameters.push(escapeLikePattern(query.search));
      filters.push(employeeSearchCondition('e', `$${parameters.length}`));
    }
    if (query.departmentId !== undefined) {
      parameters.push(query.departmentId);
      filters.push(`e.department_id = $${parameters.length}`);
    }
    if (query.isActive !== undefined) filters.push(query.isActive ? 'e.left_at IS NULL' : 'e.left_at IS NOT NULL');
    const where = filters.join(' AND ');

    const [rows, total] = await Promise.all([
      this.dataSource.query<EmployeeFields[]>(
        `SELECT ${employeeColumns('e')}
           FROM (SELECT e.id FROM employees e WHERE ${where}
                  ORDER BY e.created_at, e.id
                  LIMIT $${parameters.length + 1} OFFSET $${parameters.length + 2}) page
           JOIN employees e ON e.id = page.id
          ORDER BY e.created_at, e.id`,
        [...parameters, query.limit, query.offset],
      ),
      this.count(where, parameters),
    ]);
    return Page.of(rows.map(toEmployeeResponse), total, query);
  }

  private async count(where: string, parameters: unknown[]): Promise<number> {
    const [row] = await this.dataSource.query<{ total: number }[]>(
      `SELECT count(*)::int AS total FROM employees e WHERE ${where}`,
      parameters,
    );
    return row.total;
  }
}
