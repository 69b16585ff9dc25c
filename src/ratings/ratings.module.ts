import { Module } from '@nestjs/common';
import { ListCursors } from '../common/cursor';
import { EmployeesModule } from '../employees/employees.module';
import { SkillsModule } from '../skills/skills.module';
import { EmployeeSkillsController } from './employee-skills.controller';
import { EmployeeSkillsService } from './employee-skills.service';
import { RatingsController } from './ratings.controller';
import { RatingsRepository } from './ratings.repository';
import { RatingsService } from './ratings.service';

@Module({
  imports: [EmployeesModule, SkillsModule],
  controllers: [EmployeeSkillsController, RatingsController],
  providers: [EmployeeSkillsService, RatingsService, RatingsRepository, ListCursors],
  exports: [RatingsRepository],
})
export class RatingsModule {}
