import { applyDecorators, Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { OrgId } from '../../auth/org-id.decorator';
import { RequiresScope } from '../../auth/scopes';
import { ApiErrors } from '../../openapi/api-envelope.decorators';
import { CursorPaginationMeta } from '../../pagination/pagination';
import { EventResponse } from './dto/event.response';
import { ListEventsQuery } from './dto/list-events.query';
import { EventsFeedService } from './events-feed.service';

/** `{success: true, data: Event[], meta: {limit, hasMore, nextAfter}}`: paged by cursor, not by page number. */
const ApiEventsPage = () =>
  applyDecorators(
    ApiExtraModels(EventResponse, CursorPaginationMeta),
    ApiResponse({
      status: 200,
      schema: {
        type: 'object',
        required: ['success', 'data', 'meta'],
        properties: {
          success: { type: 'boolean', enum: [true] },
          data: { type: 'array', items: { $ref: getSchemaPath(EventResponse) } },
          meta: { $ref: getSchemaPath(CursorPaginationMeta) },
        },
      },
    }),
  );

@ApiTags('Events')
@RequiresScope('events')
@Controller('events')
export class EventsController {
  constructor(private readonly feed: EventsFeedService) {}

  @Get()
  @ApiOperation({
    summary: "The organisation's events, oldest first, paged with `after` (extension)",
    description:
      'Every event the service emitted, kept EVENT_RETENTION_DAYS (30), with the body its webhooks carry. ' +
      'An event is listed only once its transaction and every older one have ended, so a client that passes the ' +
      'last id it saw as `after` sees every event exactly once, in an order that never changes.',
  })
  @ApiEventsPage()
  @ApiErrors(400)
  list(@OrgId() organisationId: string, @Query() query: ListEventsQuery) {
    return this.feed.list(organisationId, query);
  }
}
