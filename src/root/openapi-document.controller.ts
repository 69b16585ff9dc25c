import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/public.decorator';
import { OpenApiDocument } from '../openapi/openapi-document';

/**
 * GET /api/v1/openapi.json and .yaml, through the same pipeline as every route (request id, access log,
 * rate limit), but with no key and without the envelope. Described by hand in service-paths.ts.
 */
@ApiExcludeController()
@Public()
@Controller()
export class OpenApiDocumentController {
  constructor(private readonly document: OpenApiDocument) {}

  @Get('openapi.json')
  json(@Res() response: Response): void {
    response.type('application/json').send(this.document.get('json'));
  }

  @Get('openapi.yaml')
  yaml(@Res() response: Response): void {
    response.type('application/yaml').send(this.document.get('yaml'));
  }
}
