import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DOMAIN_EVENT_NAMES } from '../../events/domain-events';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity';

/** A webhook endpoint as clients see it: never its secret. */
@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uri' })
  url: string;

  @ApiProperty({ enum: DOMAIN_EVENT_NAMES, isArray: true })
  events: string[];

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export function toWebhookResponse(endpoint: WebhookEndpoint): WebhookResponse {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    createdAt: endpoint.createdAt.toISOString(),
  };
}
