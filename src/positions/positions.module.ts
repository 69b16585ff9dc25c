import { Module } from '@nestjs/common';
import { EmployeesModule } from '../employees/employees.module';
import { ListCursors } from '../pagination/cursor';
import { RatingsModule } from '../ratings/ratings.module';
import { SkillsModule } from '../skills/skills.module';
import { CandidatesRepository } from './candidates.repository';
import { PositionsImportService } from './import/positions-import.service';
import { PositionsController } from './positions.controller';
import { PositionsRepository } from './positions.repository';
import { PositionsService } from './positions.service';

@Module({
  imports: [EmployeesModule, RatingsModule, SkillsModule],
  controllers: [PositionsController],
  providers: [PositionsRepository, CandidatesRepository, PositionsService, PositionsImportService, ListCursors],
  exports: [PositionsImportService, PositionsRepository, PositionsService],
})
export class PositionsModule {}
