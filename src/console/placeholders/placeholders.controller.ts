import { Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ConsoleController } from '../http/console-controller.decorator';
import { ConsoleViewer, Viewer } from '../http/console-request';
import { html } from '../http/html';
import { sendPage } from '../http/page-response';
import { SectionName, signedInPage } from '../layout/layout';

/** The sections whose pages come with issue 39's second part: their heading only, so nothing on them is made up. */
@ConsoleController()
export class PlaceholdersController {
  @Get('api-keys')
  apiKeys(@Viewer() viewer: ConsoleViewer, @Res() response: Response): void {
    this.section(viewer, 'API keys', response);
  }

  @Get('webhooks')
  webhooks(@Viewer() viewer: ConsoleViewer, @Res() response: Response): void {
    this.section(viewer, 'Webhooks', response);
  }

  @Get('events')
  events(@Viewer() viewer: ConsoleViewer, @Res() response: Response): void {
    this.section(viewer, 'Events', response);
  }

  private section(viewer: ConsoleViewer, section: SectionName, response: Response): void {
    sendPage(response, signedInPage(viewer, section, section, html``));
  }
}
