import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { IsOptionalNotNull } from '../validation/optional-not-null';

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
