import { Module } from '@nestjs/common';
import { BulkWriteGate } from '../bulk/bulk-write-gate';
import { ListCursors } from '../pagination/cursor';
import { VersionsModule } from '../versions/versions.module';
import { EscoImportService } from './esco/esco-import.service';
import { SkillGroupsController } from './groups/skill-groups.controller';
import { SkillGroupsRepository } from './groups/skill-groups.repository';
import { SkillGroupsService } from './groups/skill-groups.service';
import { CatalogueNames } from './resolve/catalogue-names';
import { SkillNamesRepository } from './resolve/skill-names.repository';
import { SkillResolver } from './resolve/skill-resolver';
import { SkillLinksRepository } from './skill-links.repository';
import { SkillsBulkService } from './skills-bulk.service';
import { SkillsController } from './skills.controller';
import { SkillsRepository } from './skills.repository';
import { SkillsService } from './skills.service';

@Module({
  imports: [VersionsModule],
  controllers: [SkillsController, SkillGroupsController],
  providers: [
    BulkWriteGate,
    SkillsService,
    SkillsBulkService,
    SkillsRepository,
    SkillLinksRepository,
    SkillNamesRepository,
    CatalogueNames,
    SkillResolver,
    SkillGroupsService,
    EscoImportService,
    SkillGroupsRepository,
    ListCursors,
  ],
  exports: [SkillsRepository, SkillsBulkService, SkillResolver, EscoImportService, SkillsService, SkillGroupsService],
})
export class SkillsModule {}
