import { Module } from '@nestjs/common';
import { SkillsModule } from '../skills/skills.module';
import { EmployeeSkillsController } from './employee-skills.controller';
import { EmployeeSkillsReader } from './employee-skills.reader';
import { EmployeeSkillsService } from './employee-skills.service';
import { RatingsController } from './ratings.controller';
import { RatingsService } from './ratings.service';

@Module({
  imports: [SkillsModule],
  controllers: [EmployeeSkillsController, RatingsController],
  providers: [EmployeeSkillsReader, EmployeeSkillsService, RatingsService],
})
export class RatingsModule {}
