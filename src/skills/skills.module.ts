import { Module } from '@nestjs/common';
import { ListCursors } from '../pagination/cursor';
import { SkillsBulkService } from './skills-bulk.service';
import { SkillsController } from './skills.controller';
import { SkillsRepository } from './skills.repository';
import { SkillsService } from './skills.service';

@Module({
  controllers: [SkillsController],
  providers: [SkillsService, SkillsBulkService, SkillsRepository, ListCursors],
  exports: [SkillsRepository, SkillsBulkService],
})
export class SkillsModule {}
