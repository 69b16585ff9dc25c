import { Module } from '@nestjs/common';
import { EmployeesController } from './employees.controller';
import { EmployeesService } from './employees.service';
import { EmployeeDetailReader } from './employee-detail.reader';
import { EmployeesListReader } from './employees-list.reader';

@Module({
  controllers: [EmployeesController],
  providers: [EmployeesService, EmployeesListReader, EmployeeDetailReader],
})
export class EmployeesModule {}
