import { ApiKey } from './auth/entities/api-key.entity';
import { Organisation } from './auth/entities/organisation.entity';
import { Employee } from './employees/entities/employee.entity';
import { PositionReplacement } from './positions/entities/position-replacement.entity';
import { PositionRequiredSkill } from './positions/entities/position-required-skill.entity';
import { Position } from './positions/entities/position.entity';
import { PersonSkill } from './ratings/entities/person-skill.entity';
import { Rating } from './ratings/entities/rating.entity';
import { Skill } from './skills/entities/skill.entity';
import { WebhookDelivery } from './webhooks/entities/webhook-delivery.entity';
import { WebhookEndpoint } from './webhooks/entities/webhook-endpoint.entity';

/** Every entity, listed once so the app, the CLI and the tests load the same set. */
export const ENTITIES = [
  Organisation,
  ApiKey,
  Employee,
  Skill,
  PersonSkill,
  Rating,
  Position,
  PositionRequiredSkill,
  PositionReplacement,
  WebhookEndpoint,
  WebhookDelivery,
];
