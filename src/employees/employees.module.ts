import { Module } from '@nestjs/common';
import { RatingsModule } from '../ratings/ratings.module';
import { EmployeesController } from './employees.controller';
import { EmployeesService } from './employees.service';
import { EmployeesListReader } from './employees-list.reader';

@Module({
  imports: [RatingsModule],
  controllers: [EmployeesController],
  providers: [EmployeesService, EmployeesListReader],
})
export class EmployeesModule {}
