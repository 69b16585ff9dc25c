import { Module } from '@nestjs/common';
import { ResourceEventsRepository } from './resource-events.repository';
import { ResourceVersions } from './resource-versions';

/** Versions of resources: the If-Match and Base-Version rules, and the events feed read one resource at a time. */
@Module({
  providers: [ResourceEventsRepository, ResourceVersions],
  exports: [ResourceEventsRepository, ResourceVersions],
})
export class VersionsModule {}
