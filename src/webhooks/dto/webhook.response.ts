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

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description:
      '1 at creation, +1 at every change (a rotation of its signing key); sent as the ETag, and what If-Match names',
  })
  version: number;
}

export function toWebhookResponse(endpoint: WebhookEndpoint): WebhookResponse {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    createdAt: endpoint.createdAt.toISOString(),
    version: endpoint.version,
  };
}
