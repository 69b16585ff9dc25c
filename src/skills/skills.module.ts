import { Module } from '@nestjs/common';
import { ListCursors } from '../common/cursor';
import { SkillsController } from './skills.controller';
import { SkillsRepository } from './skills.repository';
import { SkillsService } from './skills.service';

@Module({
  controllers: [SkillsController],
  providers: [SkillsService, SkillsRepository, ListCursors],
  exports: [SkillsRepository],
})
export class SkillsModule {}
