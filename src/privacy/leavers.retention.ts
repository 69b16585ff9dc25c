import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { PruneResult, RegisterRetentionStep, RetentionStep } from '../retention/retention-step';
import { PrivacyService } from './privacy.service';

/** Leavers erased per run at most (each with all their events), so one transaction stays short. */
const BATCH = 20;

/**
 * With EMPLOYEE_ERASE_AFTER_DAYS set, erases the employees who left more than that many days ago, as
 * POST /employees/{id}/erase would, with the retention job as actor. Unset: erases nobody.
 */
@RegisterRetentionStep()
@Injectable()
export class LeaversRetentionStep implements RetentionStep {
  readonly name = 'leavers';

  constructor(
    private readonly privacy: PrivacyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async prune(now: Date, manager: EntityManager): Promise<PruneResult> {
    const days = this.config.employeeEraseAfterDays;
    if (days === undefined) return { removed: 0, more: false };
    const removed = await this.privacy.eraseDueLeavers(days, now, BATCH, manager);
    return { removed, more: removed === BATCH };
  }
}
