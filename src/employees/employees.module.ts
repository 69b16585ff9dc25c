import { Module } from '@nestjs/common';
import { ListCursors } from '../common/cursor';
import { EmployeesController } from './employees.controller';
import { EmployeesRepository } from './employees.repository';
import { EmployeesService } from './employees.service';

@Module({
  controllers: [EmployeesController],
  providers: [EmployeesService, EmployeesRepository, ListCursors],
  exports: [EmployeesRepository],
})
export class EmployeesModule {}
