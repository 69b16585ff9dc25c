import { DiscoveryService } from '@nestjs/core';
import type { EntityManager } from 'typeorm';

/** What one step of a retention run did. */
export interface PruneResult {
  removed: number;
  /** The step stopped at its batch size: the job runs again at once. */
  more: boolean;
}

/** One kind of data that expires: the retention job runs every step in turn, in one transaction. */
export interface RetentionStep {
  /** Names the step in logs and in the run's report. */
  readonly name: string;
  /** Removes (a batch of) what is past its age at `now`, across every organisation. */
  prune(now: Date, manager: EntityManager): Promise<PruneResult>;
}

/**
 * Marks a provider as a retention step: the job finds every such provider of the app (Nest's discovery), so
 * a feature adds a step by decorating it in its own module and retention/ imports no feature.
 */
export const RegisterRetentionStep = DiscoveryService.createDecorator<void>();
