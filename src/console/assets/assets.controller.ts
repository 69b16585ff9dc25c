import { Get, Param } from '@nestjs/common';
import { NotFoundError } from '../../errors/errors';
import { ConsoleController } from '../http/console-controller.decorator';
import { ConsolePublic } from '../http/console-metadata';
import { Asset } from '../http/page-answer';
import { ASSETS } from './assets';

/** The stylesheet and the script, served by the service itself (no other origin), cached for good. */
@ConsolePublic()
@ConsoleController('assets')
export class AssetsController {
  @Get(':file')
  asset(@Param('file') file: string): Asset {
    const asset = ASSETS.find(({ path }) => path === `/console/assets/${file}`);
    if (!asset) throw new NotFoundError('Asset');
    return new Asset(asset.contentType, asset.body);
  }
}
