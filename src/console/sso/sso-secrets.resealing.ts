import { Injectable } from '@nestjs/common';
import { ServiceKeys } from '../../encryption/service-keys';
import { RegisterRetentionStep } from '../../retention/retention-step';
import { SecretsResealingStep } from '../../retention/secrets-resealing.step';
import { SsoRepository } from './sso.repository';

/** Every organisation's single sign-on client secret, sealed as this release seals (docs/adr/0013). */
@RegisterRetentionStep()
@Injectable()
export class SsoSecretsResealingStep extends SecretsResealingStep {
  constructor(keys: ServiceKeys, settings: SsoRepository) {
    super('single sign-on client secrets re-sealed', 'console-seals', keys, settings);
  }
}
