import { Injectable } from '@nestjs/common';
import { ServiceKeys } from '../encryption/service-keys';
import { RegisterRetentionStep } from '../retention/retention-step';
import { SecretsResealingStep } from '../retention/secrets-resealing.step';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** Every webhook endpoint's secrets (current and previous), sealed as this release seals (docs/adr/0013). */
@RegisterRetentionStep()
@Injectable()
export class WebhookSecretsResealingStep extends SecretsResealingStep {
  constructor(keys: ServiceKeys, endpoints: WebhookEndpointsRepository) {
    super('webhook secrets re-sealed', 'webhook-secrets', keys, endpoints);
  }
}
