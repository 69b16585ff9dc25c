import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { PruneResult, RegisterRetentionStep, RetentionStep } from '../retention/retention-step';
import { EventsRepository } from './events.repository';

/** Events deleted per run at most, so one transaction stays short; the job runs again while more are due. */
const BATCH = 5_000;
const DAY_MS = 86_400_000;

/**
 * Deletes events recorded more than EVENT_RETENTION_DAYS ago, with all their deliveries: a pending one among
 * them (no dispatcher ran for that long) is dropped, not sent.
 */
@RegisterRetentionStep()
@Injectable()
export class EventsRetentionStep implements RetentionStep {
  readonly name = 'events';

  constructor(
    private readonly events: EventsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async prune(now: Date, manager: EntityManager): Promise<PruneResult> {
    const cutoff = new Date(now.getTime() - this.config.eventRetentionDays * DAY_MS);
    const removed = await this.events.deleteRecordedBefore(cutoff, BATCH, manager);
    return { removed, more: removed === BATCH };
  }
}
