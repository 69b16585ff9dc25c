import { Module } from '@nestjs/common';
import { EmployeesModule } from '../employees/employees.module';
import { ListCursors } from '../pagination/cursor';
import { SkillsModule } from '../skills/skills.module';
import { EmployeeSkillsController } from './employee-skills.controller';
import { EmployeeSkillsService } from './employee-skills.service';
import { RatingsBulkController } from './ratings-bulk.controller';
import { RatingsBulkService } from './ratings-bulk.service';
import { RatingsController } from './ratings.controller';
import { RatingsRepository } from './ratings.repository';
import { RatingsService } from './ratings.service';
import { SkillEmployeesController } from './skill-employees.controller';
import { SkillEmployeesRepository } from './skill-employees.repository';
import { SkillEmployeesService } from './skill-employees.service';

@Module({
  imports: [EmployeesModule, SkillsModule],
  controllers: [EmployeeSkillsController, RatingsController, RatingsBulkController, SkillEmployeesController],
  providers: [
    EmployeeSkillsService,
    RatingsService,
    RatingsBulkService,
    RatingsRepository,
    SkillEmployeesRepository,
    SkillEmployeesService,
    ListCursors,
  ],
  exports: [RatingsRepository, RatingsBulkService, SkillEmployeesService],
})
export class RatingsModule {}
