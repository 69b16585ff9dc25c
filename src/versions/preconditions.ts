import type { IncomingMessage } from 'node:http';
import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ValidationError } from '../errors/errors';

/**
 * The versions a write names (docs/api-decisions.md, "Writes that never overwrite each other"): `If-Match` (strict: `*`,
 * or the versions any of which must be the current one) or `Base-Version` (a merge: the version the client read).
 * Neither: the write is unconditional, unless REQUIRE_IF_MATCH.
 */
export interface Preconditions {
  ifMatch?: '*' | number[];
  baseVersion?: number;
}

/** The largest version a header may name: the column is a PostgreSQL integer. */
const MAX_VERSION = 2_147_483_647;
/** `"7"` or `W/"7"`: a proxy may weaken a tag, and a version is compared as it is (RFC 9110, weak comparison). */
const ENTITY_TAG = /^(?:W\/)?"(\d{1,10})"$/;
const BASE_VERSION = /^(?:\d{1,10}|"\d{1,10}")$/;

function version(digits: string, header: string): number {
  const value = Number(digits);
  if (value < 1 || value > MAX_VERSION) {
    throw ValidationError.forField(header, `${header} must name a version from 1 to ${MAX_VERSION}`);
  }
  return value;
}

/** `*`, or a comma-separated list of `"<version>"` (each maybe `W/`); anything else is 400. */
export function parseIfMatch(value: string): '*' | number[] {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  return trimmed.split(',').map((tag) => {
    const match = ENTITY_TAG.exec(tag.trim());
    if (!match) throw ValidationError.forField('If-Match', 'If-Match must be * or an ETag this API sent, as "3"');
    return version(match[1], 'If-Match');
  });
}

/** A version, as `3` or `"3"`; anything else is 400. */
export function parseBaseVersion(value: string): number {
  const trimmed = value.trim();
  if (!BASE_VERSION.test(trimmed)) {
    throw ValidationError.forField('Base-Version', 'Base-Version must be a version this API sent, as 3');
  }
  return version(trimmed.replaceAll('"', ''), 'Base-Version');
}

/** The preconditions of a request's headers; `merges`: whether the route takes Base-Version (a PATCH). */
export function preconditionsOf(request: Pick<IncomingMessage, 'headers'>, merges: boolean): Preconditions {
  const ifMatch = request.headers['if-match'];
  const baseVersion = request.headers['base-version'];
  if (ifMatch !== undefined && baseVersion !== undefined) {
    throw ValidationError.forField('Base-Version', 'Send If-Match or Base-Version, not both');
  }
  if (baseVersion !== undefined && !merges) {
    throw ValidationError.forField('Base-Version', 'Base-Version is taken by PATCH only; use If-Match');
  }
  if (ifMatch !== undefined) return { ifMatch: parseIfMatch(ifMatch) };
  if (baseVersion !== undefined) return { baseVersion: parseBaseVersion(String(baseVersion)) };
  return {};
}

/**
 * The route's Preconditions, from `If-Match` (and `Base-Version` with `{merges: true}`, a PATCH): a malformed
 * header, or both, is 400 before the resource is looked up; whether they hold is checked under its lock.
 */
export const WritePreconditions = createParamDecorator(
  (options: { merges?: boolean } | undefined, context: ExecutionContext): Preconditions =>
    preconditionsOf(context.switchToHttp().getRequest<IncomingMessage>(), options?.merges === true),
);

/** Documents the headers WritePreconditions reads, and the answers they add. */
export function ApiPreconditions(options: { merges?: boolean } = {}) {
  const headers = [
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'Write only if the resource is at this version: its ETag (`"3"`, `W/"3"` or `*` for any). Another version ' +
        'is 412 PRECONDITION_FAILED naming the fields changed since, and nothing is written' +
        (options.merges ? ' (a PATCH whose every field already holds its value answers 200)' : '') +
        '; malformed: 400. With REQUIRE_IF_MATCH, a write without it is 428 PRECONDITION_REQUIRED.',
      schema: { type: 'string', example: '"3"' },
    }),
  ];
  if (options.merges) {
    headers.push(
      ApiHeader({
        name: 'Base-Version',
        required: false,
        description:
          'Merge instead of refusing: the version the client read. Applied when none of the fields this PATCH ' +
          'changes was changed since (as the events feed records it), else 409 CONFLICT naming each such field; ' +
          'a version unknown to the resource or older than the kept history is 409 too. Not with If-Match (400).',
        schema: { type: 'integer', minimum: 1, example: 3 },
      }),
    );
  }
  return applyDecorators(...headers);
}
