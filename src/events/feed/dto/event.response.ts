import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { DOMAIN_EVENT_NAMES } from '../../domain-events';

/** An event as GET /events lists it: its id and exactly the body its webhook deliveries carry. */
@ApiSchema({ name: 'Event' })
export class EventResponse {
  @ApiProperty({ format: 'uuid', description: 'Also the webhook-id header of its deliveries' })
  id: string;

  @ApiProperty({ enum: DOMAIN_EVENT_NAMES })
  event: string;

  @ApiProperty({ format: 'date-time', description: 'When it occurred' })
  timestamp: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The payload, as the webhook carries it' })
  data: unknown;
}

/** The stored body is parsed, not rebuilt, so the feed shows exactly what the webhooks were sent. */
export function toEventResponse(id: string, body: Buffer): EventResponse {
  const { event, timestamp, data } = JSON.parse(body.toString('utf8')) as Omit<EventResponse, 'id'>;
  return { id, event, timestamp, data };
}
