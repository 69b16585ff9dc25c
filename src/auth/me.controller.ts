import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope } from '../openapi/api-envelope.decorators';
import type { AuthenticatedKey } from './api-keys.service';
import { CurrentKey } from './current-key.decorator';
import { MeResponse, toMeResponse } from './dto/me.response';
import { OrganisationsService } from './organisations.service';
import { NoScopeRequired } from './scopes';

@ApiTags('Me')
@NoScopeRequired()
@Controller('me')
export class MeController {
  constructor(private readonly organisations: OrganisationsService) {}

  @Get()
  @ApiOperation({
    summary: 'The organisation and the API key of the request (extension)',
    description: 'Any valid key may call it, whatever its scopes: a client can see what its key may do.',
  })
  @ApiEnvelope(MeResponse)
  async get(@CurrentKey() key: AuthenticatedKey): Promise<MeResponse> {
    return toMeResponse(await this.organisations.get(key.organisationId), key);
  }
}
