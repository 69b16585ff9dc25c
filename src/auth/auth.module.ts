import { Global, Module } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { MeController } from './me.controller';
import { OrganisationsRepository } from './organisations.repository';
import { OrganisationsService } from './organisations.service';
import { RequestAuthenticator } from './request-authenticator';

@Global()
@Module({
  controllers: [MeController],
  providers: [ApiKeysRepository, ApiKeysService, OrganisationsRepository, OrganisationsService, RequestAuthenticator],
  exports: [ApiKeysService, OrganisationsService, RequestAuthenticator],
})
export class AuthModule {}
