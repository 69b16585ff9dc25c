import { Module } from '@nestjs/common';
import { ListCursors } from '../pagination/cursor';
import { EmployeesBulkService } from './employees-bulk.service';
import { EmployeesController } from './employees.controller';
import { EmployeesRepository } from './employees.repository';
import { EmployeesService } from './employees.service';

@Module({
  controllers: [EmployeesController],
  providers: [EmployeesService, EmployeesBulkService, EmployeesRepository, ListCursors],
  exports: [EmployeesRepository, EmployeesBulkService, EmployeesService],
})
export class EmployeesModule {}
