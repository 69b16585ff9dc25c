import { Module } from '@nestjs/common';
import { ListCursors } from '../pagination/cursor';
import { VersionsModule } from '../versions/versions.module';
import { EmployeesBulkService } from './employees-bulk.service';
import { EmployeesController } from './employees.controller';
import { EmployeesRepository } from './employees.repository';
import { EmployeesService } from './employees.service';

@Module({
  imports: [VersionsModule],
  controllers: [EmployeesController],
  providers: [EmployeesService, EmployeesBulkService, EmployeesRepository, ListCursors],
  exports: [EmployeesRepository, EmployeesBulkService, EmployeesService],
})
export class EmployeesModule {}
