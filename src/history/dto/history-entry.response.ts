import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EventResponse, toEventResponse } from '../../events/feed/dto/event.response';
import type { ResourceEventRow } from '../../versions/resource-events.repository';

/** One event of a resource's history: the event as GET /events lists it, and the version it made. */
@ApiSchema({ name: 'HistoryEntry' })
export class HistoryEntryResponse extends EventResponse {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      "The resource's version after this change (its ETag then); 0 for a resource without versions, or an event " +
      'recorded before versions were',
  })
  version: number;
}

export function toHistoryEntryResponse(row: ResourceEventRow): HistoryEntryResponse {
  return { ...toEventResponse(row.id, row.body), version: row.version };
}
