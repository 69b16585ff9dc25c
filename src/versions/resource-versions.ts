import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import type { Preconditions } from './preconditions';
import { ChangesReadWithLock, RecordedChange, ResourceEventsRepository } from './resource-events.repository';
import { checkVersion, fieldsChangedSince, VersionedWrite, VersionVerdict } from './version-check';

/** A write's check, as a feature describes it: checkVersion's input but what this service supplies. */
export type VersionCheck = Omit<VersionedWrite, 'required' | 'changedSince'> & {
  /** The fields an event without `changes` changed, by event name (see fieldsChangedSince). */
  impliedBy?: Record<string, string[]>;
  /** The changes the statement that locked the resource read with it (a merge), when it read them. */
  readWithLock?: ChangesReadWithLock;
};

/** A kind of versioned resource, as its writes are checked: its name in messages and how the API shows one. */
export interface VersionedKind<R extends { id: string; version: number }> {
  /** The resource's name in messages: `Skill`. */
  resource: string;
  representation: (record: R) => object;
  /** The fields an event without `changes` changed, by event name (see fieldsChangedSince). */
  impliedBy?: Record<string, string[]>;
}

/**
 * If-Match, Base-Version and REQUIRE_IF_MATCH for a write of the locked `record`: `changes`, a PATCH's changed
 * fields; none for a write of the whole resource (DELETE, erase).
 */
export type RecordVersionCheck<R> = (
  organisationId: string,
  record: R,
  preconditions: Preconditions,
  manager: EntityManager,
  changes?: string[],
  readWithLock?: ChangesReadWithLock,
) => Promise<VersionVerdict>;

/**
 * Checks a write's If-Match or Base-Version against its locked resource (checkVersion), reading the fields
 * changed since a version from the events feed only when a refusal or a merge needs them: a write without the
 * headers, or naming the current version, costs no query, and neither does a merge whose lock read them, unless a
 * change committed while it waited for the lock (its version is missing from what the lock's snapshot saw).
 */
@Injectable()
export class ResourceVersions {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: ResourceEventsRepository,
  ) {}

  check(
    organisationId: string,
    resourceId: string,
    check: VersionCheck,
    manager: EntityManager,
  ): Promise<VersionVerdict> {
    const { impliedBy, readWithLock, ...write } = check;
    const fieldsChanged = (recorded: RecordedChange[], since: number) =>
      fieldsChangedSince(recorded, since, write.current, impliedBy);
    return checkVersion({
      ...write,
      required: this.config.requireIfMatch,
      changedSince: async (since) =>
        (readWithLock?.since === since ? fieldsChanged(readWithLock.recorded, since) : null) ??
        fieldsChanged(await this.events.changesSince(organisationId, resourceId, since, manager), since),
    });
  }

  /** The check of the writes of one kind of resource (RecordVersionCheck). */
  checkerFor<R extends { id: string; version: number }>(kind: VersionedKind<R>): RecordVersionCheck<R> {
    const { resource, representation, impliedBy } = kind;
    return (organisationId, record, preconditions, manager, changes, readWithLock) =>
      this.check(
        organisationId,
        record.id,
        {
          resource,
          current: record.version,
          preconditions,
          changes,
          representation: representation(record),
          impliedBy,
          readWithLock,
        },
        manager,
      );
  }
}
