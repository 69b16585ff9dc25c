import { Module } from '@nestjs/common';
import { ListCursors } from '../pagination/cursor';
import { VersionsModule } from '../versions/versions.module';
import { HistoryController } from './history.controller';
import { HistoryRepository } from './history.repository';
import { HistoryService } from './history.service';

/** GET /employees/{id}/history and GET /skills/{id}/history, over the events feed's own store. */
@Module({
  imports: [VersionsModule],
  controllers: [HistoryController],
  providers: [HistoryService, HistoryRepository, ListCursors],
})
export class HistoryModule {}
