import { Module } from '@nestjs/common';
import { EmployeesController } from './employees.controller';
import { EmployeesRepository } from './employees.repository';
import { EmployeesBulkService } from './employees-bulk.service';
import { EmployeesService } from './employees.service';

@Module({
  controllers: [EmployeesController],
  providers: [EmployeesService, EmployeesBulkService, EmployeesRepository],
  exports: [EmployeesRepository, EmployeesBulkService],
})
export class EmployeesModule {}
