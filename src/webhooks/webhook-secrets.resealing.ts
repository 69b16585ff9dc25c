import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ServiceKeys } from '../encryption/service-keys';
import { PruneResult, RegisterRetentionStep, RetentionStep } from '../retention/retention-step';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** Endpoints re-sealed per transaction. */
const BATCH = 200;

/**
 * During a rotation of the service secret, seals again with the new secret's key every endpoint secret sealed
 * otherwise (under the previous secret, or release 4's format), so that once the grace ends the new key alone
 * opens them all. A step of the retention job: one instance at a time (its lock), every minute, in batches; rows
 * an endpoint's own rotation holds are skipped and taken at the next run. Outside a rotation it does nothing, so
 * what release 4 sealed stays readable by it (a rollback) until the secret is rotated.
 */
@RegisterRetentionStep()
@Injectable()
export class WebhookSecretsResealingStep implements RetentionStep {
  readonly name = 'webhook secrets re-sealed';
  private readonly logger = new Logger(WebhookSecretsResealingStep.name);

  constructor(
    private readonly keys: ServiceKeys,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  async prune(now: Date, manager: EntityManager): Promise<PruneResult> {
    if (!this.keys.rotating(now)) return { removed: 0, more: false };
    const prefix = this.keys.currentSealPrefix('webhook-secrets');
    const endpoints = await this.endpoints.lockSealedOtherwise(prefix, BATCH, manager);
    let resealed = 0;
    for (const endpoint of endpoints) {
      const again = (sealed: Buffer | null) =>
        sealed && this.keys.sealAgain('webhook-secrets', sealed, endpoint.id, now);
      let sealed;
      try {
        sealed = {
          secretSealed: again(endpoint.secretSealed),
          previousSecretSealed: again(endpoint.previousSecretSealed),
        };
      } catch (error) {
        // Sealed with neither secret: no key opens it, now or later; the others go on.
        this.logger.warn(
          `Webhook endpoint ${endpoint.id}: its secret cannot be re-sealed (${(error as Error).message})`,
        );
        continue;
      }
      await this.endpoints.replaceSealed(endpoint.organisationId, endpoint.id, sealed, manager);
      resealed++;
    }
    return { removed: resealed, more: endpoints.length === BATCH && resealed > 0 };
  }
}
