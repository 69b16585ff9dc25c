import { Global, Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { OrganisationsService } from './organisations.service';
import { RequestAuthenticator } from './request-authenticator';

@Global()
@Module({
  providers: [ApiKeysService, OrganisationsService, RequestAuthenticator],
  exports: [ApiKeysService, OrganisationsService, RequestAuthenticator],
})
export class AuthModule {}
