import { Get, Query } from '@nestjs/common';
import { ActivityLog } from '../../audit/activity-log';
import { isUuid } from '../../database/uuid';
import { ConsoleController } from '../http/console-controller.decorator';
import { ConsolePage, Page } from '../http/console-request';
import { Html } from '../http/html';
import { activityPage } from './activity.page';

/** The Activity page: the organisation's log, newest first, 50 a page, "Older" and "Newer". */
@ConsoleController('activity')
export class ActivityController {
  constructor(private readonly activity: ActivityLog) {}

  @Get()
  async list(
    @Page() { organisationId, viewer }: ConsolePage,
    @Query('before') before: unknown,
    @Query('after') after: unknown,
  ): Promise<Html> {
    // Anything but an entry's id pages from the newest.
    const from = isUuid(after)
      ? { after: after.toLowerCase() }
      : isUuid(before)
        ? { before: before.toLowerCase() }
        : {};
    return activityPage(viewer, await this.activity.page(organisationId, from));
  }
}
