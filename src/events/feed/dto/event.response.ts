import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { Actor } from '../../../database/write-context';
import type { Changes } from '../../changes';
import { FEED_EVENT_NAMES } from '../../domain-events';

/** One field a change altered, in the API's representation. */
@ApiSchema({ name: 'FieldChange' })
export class FieldChange {
  @ApiProperty({ nullable: true, description: 'The value before the change' })
  previous: unknown;

  @ApiProperty({ nullable: true, description: 'The value after the change' })
  current: unknown;
}

/** Who made the change: an API key (`id`: the key's id) or the command line (`cli`, no id). */
@ApiSchema({ name: 'EventActor' })
export class EventActor {
  @ApiProperty({ enum: ['api_key', 'cli'] })
  type: 'api_key' | 'cli';

  @ApiPropertyOptional({ format: 'uuid', description: "The API key's id; only for type api_key" })
  id?: string;
}

/**
 * An event as GET /events lists it: its id and exactly the body its webhook deliveries carry,
 * `{event, timestamp, data, changes?, actor, requestId}`.
 */
@ApiSchema({ name: 'Event' })
@ApiExtraModels(FieldChange)
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
    additionalProperties: { $ref: getSchemaPath(FieldChange) },
    description:
      'Only on employee.updated and skill.updated: each field the change altered (updatedAt left out), ' +
      'with its previous and current value',
  })
  changes?: Changes;

  @ApiProperty({ type: EventActor })
  actor: Actor;

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
