import { Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { NotFoundError } from '../../errors/errors';
import { ConsoleController } from '../http/console-controller.decorator';
import { ConsolePublic } from '../http/console-metadata';
import { ASSETS } from './assets';

/** A year, and immutable: an asset's name changes with its content. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The stylesheet and the script, served by the service itself (no other origin), cached for good. */
@ConsolePublic()
@ConsoleController('assets')
export class AssetsController {
  @Get(':file')
  asset(@Param('file') file: string, @Res() response: Response): void {
    const asset = ASSETS.find(({ path }) => path === `/console/assets/${file}`);
    if (!asset) throw new NotFoundError('Asset');
    response.setHeader('Content-Type', asset.contentType);
    response.setHeader('Content-Length', asset.body.length);
    response.setHeader('Cache-Control', CACHE_CONTROL);
    response.end(asset.body);
  }
}
