import { Global, Module } from '@nestjs/common';
import { ActivityLog } from './activity-log';
import { ActivityRepository } from './activity.repository';

/** The activity log, below the features (as events/ is): every feature that changes what people manage writes to it. */
@Global()
@Module({ providers: [ActivityRepository, ActivityLog], exports: [ActivityRepository, ActivityLog] })
export class AuditModule {}
