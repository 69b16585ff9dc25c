import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { EventActor } from '../../../database/write-context';
import type { Changes } from '../../changes';
import { FEED_EVENT_NAMES } from '../../domain-events';

/**
 * Who made the change: an API key (`id`: the key's id), the command line (`cli`, no id), the retention job
 * (`retention`, no id: a leaver's erasure) or a console person (`console`, `id`: their id; an erasure there).
 */
@ApiSchema({ name: 'EventActor' })
export class EventActorSchema {
  @ApiProperty({ enum: ['api_key', 'cli', 'retention', 'console'] })
  type: 'api_key' | 'cli' | 'retention' | 'console';

  @ApiPropertyOptional({
    format: 'uuid',
    description: "The API key's id for type api_key, the console person's id for type console",
  })
  id?: string;
}

/**
 * An event as GET /events lists it: its id and exactly the body its webhook deliveries carry,
 * `{event, timestamp, data, changes?, actor, requestId}`.
 */
@ApiSchema({ name: 'Event' })
export class EventResponse {
  @ApiProperty({ format: 'uuid', description: 'Also the webhook-id header of its deliveries' })
  id: string;

  @ApiProperty({ enum: FEED_EVENT_NAMES })
  event: string;

  @ApiProperty({ format: 'date-time', description: 'When it occurred' })
  timestamp: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The payload, as the webhook carries it' })
  data: unknown;

  @ApiPropertyOptional({
    type: 'object',
    // previous/current are any JSON value the field takes (an empty schema: no type).
    additionalProperties: {
      type: 'object',
      required: ['previous', 'current'],
      properties: {
        previous: { description: 'The value before the change, as the API writes it' },
        current: { description: 'The value after the change, as the API writes it' },
      },
    },
    description:
      'Only on employee.updated and skill.updated: each field the change altered (updatedAt left out), ' +
      'with its previous and current value',
  })
  changes?: Changes;

  @ApiProperty({ type: EventActorSchema })
  actor: EventActor;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The X-Request-Id of the request that made the change; null from the command line',
  })
  requestId: string | null;
}

/** The stored body is parsed, not rebuilt, so the feed shows exactly what the webhooks were sent. */
export function toEventResponse(id: string, body: Buffer): EventResponse {
  return { id, ...(JSON.parse(body.toString('utf8')) as Omit<EventResponse, 'id'>) };
}
