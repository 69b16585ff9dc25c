import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { failItemOn, PlannedChange } from '../bulk/bulk';
import { ValidationError } from '../errors/errors';
import { IsOptionalNotNull } from '../validation/optional-not-null';
import type { Preconditions } from './preconditions';

/** The largest version an item may name: the column is a PostgreSQL integer. */
const MAX_VERSION = 2_147_483_647;

function ItemVersion(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_VERSION, description }),
    IsOptionalNotNull(),
    IsInt(),
    Min(1),
    Max(MAX_VERSION),
  );
}

/** A bulk update item's `ifMatch`: as If-Match on the PATCH of the `resource` (`employee`), strict. */
export function IfMatchItem(resource: string) {
  return ItemVersion(`As If-Match: the item fails with PRECONDITION_FAILED unless the ${resource} is at this version`);
}

/** A bulk update item's `baseVersion`: as Base-Version on the PATCH, a merge. */
export function BaseVersionItem() {
  return ItemVersion(
    'As Base-Version: the item fails with CONFLICT when a field it changes was changed since this version',
  );
}

/** A bulk update item's versions, as IfMatchItem and BaseVersionItem check them. */
interface ItemVersions {
  ifMatch?: number;
  baseVersion?: number;
}

/**
 * Each update item's `ifMatch` or `baseVersion`, checked as PATCH checks the headers, under the lock the bulk
 * upsert holds on its resource: `check` (the resource's RecordVersionCheck, with the fields the item changes)
 * refuses with PRECONDITION_FAILED or CONFLICT, and that item fails while the others go on. An item already in
 * place writes nothing: the no-op rule makes it unchanged.
 */
export async function checkItemVersions<T>(
  items: unknown[],
  planned: PlannedChange<T>[],
  check: (before: T, after: T, preconditions: Preconditions) => Promise<unknown>,
): Promise<void> {
  for (const { before, after, outcome } of planned) {
    const { ifMatch, baseVersion } = items[outcome.index] as ItemVersions;
    if (!before || (ifMatch === undefined && baseVersion === undefined)) continue;
    try {
      if (ifMatch !== undefined && baseVersion !== undefined) {
        throw ValidationError.forField('baseVersion', 'An item names ifMatch or baseVersion, not both');
      }
      await check(before, after, ifMatch !== undefined ? { ifMatch: [ifMatch] } : { baseVersion });
    } catch (error) {
      failItemOn(outcome, error);
    }
  }
}
