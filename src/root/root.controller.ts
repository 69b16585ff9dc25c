import { All, Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { NotFoundError } from '../errors/errors';
import { SkipInput } from '../http/request-input.guard';
import { API_PREFIX } from '../openapi';

const POINTERS = { docs: '/api/v1/docs', openapi: '/api/v1/openapi.json' };

/**
 * `GET /` and `GET /api/v1` say where the API describes itself. Any other path under /api/v1 that names
 * no route is 404 with or without a key, after the rate limit (docs/api-decisions.md, "Order of checks"): a route
 * of its own, registered last, so the guards count it like any other request.
 */
@ApiExcludeController()
@Public()
@Controller()
export class RootController {
  // Both paths are excluded from the global prefix (app.setup.ts).
  @Get(['', API_PREFIX])
  root(): typeof POINTERS {
    return POINTERS;
  }

  @All('{*path}')
  @SkipInput()
  unknown(): never {
    throw new NotFoundError('Resource');
  }
}
