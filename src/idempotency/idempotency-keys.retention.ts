import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PruneResult, RegisterRetentionStep, RetentionStep } from '../retention/retention-step';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** Keys removed per run at most, so one transaction stays short; the job runs again while more are due. */
const BATCH = 5_000;

/** Removes the responses kept for Idempotency-Keys once their 24 hours are over. */
@RegisterRetentionStep()
@Injectable()
export class IdempotencyKeysRetentionStep implements RetentionStep {
  readonly name = 'idempotency keys';

  constructor(private readonly keys: IdempotencyKeysRepository) {}

  async prune(now: Date, manager: EntityManager): Promise<PruneResult> {
    const removed = await this.keys.deleteExpired(now, BATCH, manager);
    return { removed, more: removed === BATCH };
  }
}
