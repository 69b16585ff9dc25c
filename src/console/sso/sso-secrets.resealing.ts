import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ServiceKeys } from '../../encryption/service-keys';
import { PruneResult, RegisterRetentionStep, RetentionStep } from '../../retention/retention-step';
import { SsoRepository } from './sso.repository';
import { sealingContext } from './sso.service';

/** Client secrets re-sealed per transaction. */
const BATCH = 200;

/**
 * During a rotation of the service secret, seals again with the new secret's console key every organisation's
 * single sign-on client secret sealed otherwise, as webhooks/webhook-secrets.resealing.ts does for endpoints.
 */
@RegisterRetentionStep()
@Injectable()
export class SsoSecretsResealingStep implements RetentionStep {
  readonly name = 'single sign-on client secrets re-sealed';
  private readonly logger = new Logger(SsoSecretsResealingStep.name);

  constructor(
    private readonly keys: ServiceKeys,
    private readonly settings: SsoRepository,
  ) {}

  async prune(now: Date, manager: EntityManager): Promise<PruneResult> {
    if (!this.keys.rotating(now)) return { removed: 0, more: false };
    const prefix = this.keys.currentSealPrefix('console-seals');
    const rows = await this.settings.lockSealedOtherwise(prefix, BATCH, manager);
    let resealed = 0;
    for (const { organisationId, clientSecretSealed } of rows) {
      let sealed: Buffer;
      try {
        sealed = this.keys.sealAgain('console-seals', clientSecretSealed, sealingContext(organisationId), now);
      } catch (error) {
        // Sealed with neither secret: no key opens it, now or later; the others go on.
        this.logger.warn(
          `Single sign-on of ${organisationId}: its client secret cannot be re-sealed (${(error as Error).message})`,
        );
        continue;
      }
      await this.settings.replaceSealed(organisationId, sealed, manager);
      resealed++;
    }
    return { removed: resealed, more: rows.length === BATCH && resealed > 0 };
  }
}
