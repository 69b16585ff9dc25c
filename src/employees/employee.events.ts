import type { EmployeeResponse } from './dto/employee.response';

/** The events of employees: each carries the Employee as the API returns it after the change. */
declare module '../events/domain-events' {
  interface DomainEventMap {
    'employee.created': EmployeeResponse;
    'employee.updated': EmployeeResponse;
    'employee.deactivated': EmployeeResponse;
  }
}
