import { Module } from '@nestjs/common';
import { EmployeesModule } from '../employees/employees.module';
import { PositionsModule } from '../positions/positions.module';
import { RatingsModule } from '../ratings/ratings.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { LeaversRetentionStep } from './leavers.retention';
import { PrivacyController } from './privacy.controller';
import { PrivacyService } from './privacy.service';

/**
 * An employee's erasure and personal-data export, and the leavers' erasure (docs/api-decisions.md, "Data protection").
 */
@Module({
  imports: [EmployeesModule, RatingsModule, PositionsModule, WebhooksModule],
  controllers: [PrivacyController],
  providers: [PrivacyService, LeaversRetentionStep],
  exports: [PrivacyService],
})
export class PrivacyModule {}
