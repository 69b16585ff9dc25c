import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PruneResult, RegisterRetentionStep, RetentionStep } from '../retention/retention-step';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** Erases the previous secrets whose rotation overlap has ended (they stopped signing at that moment already). */
@RegisterRetentionStep()
@Injectable()
export class WebhookSecretsRetentionStep implements RetentionStep {
  readonly name = 'previous webhook secrets';

  constructor(private readonly endpoints: WebhookEndpointsRepository) {}

  async prune(now: Date, manager: EntityManager): Promise<PruneResult> {
    return { removed: await this.endpoints.erasePreviousSecrets(now, manager), more: false };
  }
}
