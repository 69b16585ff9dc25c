import { Global, Module } from '@nestjs/common';
import { ServiceKeys } from './service-keys';

/** The keys derived from the service secret, for every feature that signs or seals. */
@Global()
@Module({ providers: [ServiceKeys], exports: [ServiceKeys] })
export class EncryptionModule {}
