import { All } from '@nestjs/common';
import { ConsoleController } from './http/console-controller.decorator';
import { ConsolePublic } from './http/console-metadata';
import { PageWith } from './http/page-answer';
import { messagePage } from './layout/layout';

const NOT_FOUND = messagePage('Not found', 'There is no such page here.');

/** Any other path under /console: the console's 404 page. Registered after every other console controller. */
@ConsolePublic()
@ConsoleController()
export class ConsoleNotFoundController {
  @All('*path')
  notFound(): PageWith {
    return new PageWith(NOT_FOUND, { status: 404 });
  }
}
