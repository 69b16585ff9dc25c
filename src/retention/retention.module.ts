import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RetentionJob } from './retention.job';
import { RetentionRepository } from './retention.repository';

/** The retention job; its steps are the providers marked @RegisterRetentionStep(), in their own modules. */
@Module({
  imports: [DiscoveryModule],
  providers: [RetentionRepository, RetentionJob],
  exports: [RetentionJob],
})
export class RetentionModule {}
