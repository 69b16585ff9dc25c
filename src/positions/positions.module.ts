import { Module } from '@nestjs/common';
import { PositionsImportService } from './import/positions-import.service';
import { PositionsController } from './positions.controller';
import { PositionsRepository } from './positions.repository';
import { PositionsService } from './positions.service';

@Module({
  controllers: [PositionsController],
  providers: [PositionsRepository, PositionsService, PositionsImportService],
  exports: [PositionsService, PositionsImportService],
})
export class PositionsModule {}
