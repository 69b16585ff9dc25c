import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ActivityRepository } from '../audit/activity.repository';
import { PruneResult, RegisterRetentionStep, RetentionStep } from '../retention/retention-step';
import { ConsoleUsersRepository } from './people/console-users.repository';
import { SessionsRepository } from './sessions/sessions.repository';
import { SESSION_ABSOLUTE_MS } from './sessions/sessions.service';
import { LOCKOUT_MS, LOCKOUT_WINDOW_MS } from './sessions/sign-in.service';

/** docs/api-decisions.md, "Activity": kept 400 days. */
export const ACTIVITY_RETENTION_DAYS = 400;

/** Rows removed per table per run at most, so one transaction stays short; the job runs again while more are due. */
const BATCH = 5_000;

/**
 * Removes what the console no longer needs: activity older than 400 days, sessions past their 12 hours,
 * welcome tokens past their 72 hours, failed sign-ins too old to lock anything.
 */
@RegisterRetentionStep()
@Injectable()
export class ConsoleRetentionStep implements RetentionStep {
  readonly name = 'console activity, sessions, welcome links and failed sign-ins';

  constructor(
    private readonly activity: ActivityRepository,
    private readonly sessions: SessionsRepository,
    private readonly users: ConsoleUsersRepository,
  ) {}

  async prune(now: Date, manager: EntityManager): Promise<PruneResult> {
    const removed = [
      await this.activity.deleteBefore(new Date(now.getTime() - ACTIVITY_RETENTION_DAYS * 86_400_000), BATCH, manager),
      await this.sessions.deleteStarted(new Date(now.getTime() - SESSION_ABSOLUTE_MS), BATCH, manager),
      await this.users.deleteExpiredWelcomeTokens(now, BATCH, manager),
      await this.sessions.deleteFailedSignInsBefore(
        new Date(now.getTime() - LOCKOUT_WINDOW_MS - LOCKOUT_MS),
        BATCH,
        manager,
      ),
    ];
    return { removed: removed.reduce((sum, count) => sum + count, 0), more: removed.some((count) => count === BATCH) };
  }
}
