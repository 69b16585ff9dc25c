import { All, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ConsoleController } from './http/console-controller.decorator';
import { ConsolePublic } from './http/console-metadata';
import { sendPage } from './http/page-response';
import { messagePage } from './layout/layout';

const NOT_FOUND = messagePage('Not found', 'There is no such page here.');

/** Any other path under /console: the console's 404 page. Registered after every other console controller. */
@ConsolePublic()
@ConsoleController()
export class ConsoleNotFoundController {
  @All('*path')
  notFound(@Res() response: Response): void {
    sendPage(response, NOT_FOUND, { status: 404 });
  }
}
