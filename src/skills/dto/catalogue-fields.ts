import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull } from '../../validation/optional-not-null';

/** At most this many aliases of each kind on one skill (decisions.md). */
export const MAX_ALIASES = 100;

/** `aliases` or `hiddenAliases` of a POST or PATCH body: up to 100 names of 1–200 characters. */
export function AliasList(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_ALIASES, description }),
    IsOptionalNotNull(),
    IsArray(),
    ArrayMaxSize(MAX_ALIASES),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxLength(200, { each: true }),
  );
}

/** `groupIds` or `parentIds`: groups of the organisation (an unknown one is 404). */
export function GroupIdList(description = 'Ids of skill groups (each of the organisation, else 404); replaces them') {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_ALIASES, description }),
    IsOptionalNotNull(),
    IsArray(),
    ArrayMaxSize(MAX_ALIASES),
    IsString({ each: true }),
  );
}

/** `source` (≤ 50) or `externalId` (≤ 500): nullable strings. */
export function ExternalField(maxLength: number, description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength, description }),
    IsOptional(),
    IsString(),
    IsNotEmpty(),
    MaxLength(maxLength),
  );
}
