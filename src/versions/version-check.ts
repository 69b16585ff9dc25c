import type { FieldError } from '../errors/errors';
import { FieldsConflictError, PreconditionFailedError, PreconditionRequiredError } from '../errors/errors';
import type { Preconditions } from './preconditions';
import type { RecordedChange } from './resource-events.repository';

/** A write of one versioned resource, with what its preconditions are checked against (under the row's lock). */
export interface VersionedWrite {
  /** The resource's name in messages: `Employee`. */
  resource: string;
  /** The locked row's version. */
  current: number;
  preconditions: Preconditions;
  /** REQUIRE_IF_MATCH: a write that names no version is 428. */
  required: boolean;
  /**
   * The fields a PATCH changes (its fields whose value differs from the stored one; none: it is in place already);
   * undefined for a write of the whole resource (DELETE, erase).
   */
  changes?: string[];
  /** The resource as the API shows it now: each field a refusal names comes with its current value. */
  representation: object;
  /** The fields changed after `since` up to the current version; null when the kept history no longer holds them. */
  changedSince(since: number): Promise<string[] | null>;
}

/** Whether the write goes ahead, or answers the resource unchanged (a PATCH whose values are in place already). */
export type VersionVerdict = 'write' | 'in-place';

/**
 * The rules of If-Match, Base-Version and REQUIRE_IF_MATCH (docs/api-decisions.md, "Writes that never overwrite each
 * other"), for a write that has found and locked its resource (404 comes first): 428, 412 or 409, else the verdict.
 */
export async function checkVersion(write: VersionedWrite): Promise<VersionVerdict> {
  const { resource, current, preconditions, changes } = write;
  const { ifMatch, baseVersion } = preconditions;
  if (ifMatch === undefined && baseVersion === undefined) {
    if (!write.required) return 'write';
    const names = changes === undefined ? 'If-Match' : 'If-Match or Base-Version';
    throw new PreconditionRequiredError(`This ${resource} write needs ${names} naming the version it is based on`);
  }
  if (ifMatch !== undefined) {
    if (ifMatch === '*' || ifMatch.includes(current)) return 'write';
    if (changes !== undefined && changes.length === 0) return 'in-place';
    const since = Math.min(...ifMatch);
    const changed = since < current ? await write.changedSince(since) : null;
    throw new PreconditionFailedError(
      `The ${resource} is at version ${current}, not ${ifMatch.join(' or ')}: nothing was written`,
      changed === null ? undefined : fieldErrors(changed, since, write.representation),
    );
  }
  const base = baseVersion!;
  if (base === current) return 'write';
  if (base > current) {
    throw new FieldsConflictError(`Base-Version ${base} is not a version of this ${resource}, which is at ${current}`);
  }
  const changed = await write.changedSince(base);
  if (changed === null) {
    throw new FieldsConflictError(`Base-Version ${base} is older than the kept history of this ${resource}`);
  }
  const overlapping = changed.filter((field) => changes?.includes(field));
  if (overlapping.length > 0) {
    throw new FieldsConflictError(
      `Fields this PATCH changes were changed since version ${base}: nothing was written`,
      fieldErrors(overlapping, base, write.representation),
    );
  }
  return 'write';
}

/**
 * The fields changed after `since`, from the recorded changes after it (oldest first), each once, in the order
 * they first changed; null when a version between `since` and `current` has no recorded event (pruned by
 * retention, or written before versions were recorded). `impliedBy` names the fields an event without
 * `changes` changed (employee.deactivated: leftAt).
 */
export function fieldsChangedSince(
  recorded: RecordedChange[],
  since: number,
  current: number,
  impliedBy: Record<string, string[]> = {},
): string[] | null {
  const versions = new Set(recorded.map(({ version }) => version).filter((version) => version <= current));
  if (versions.size !== current - since) return null;
  const fields = new Set<string>();
  for (const { event, changes } of recorded) {
    for (const field of Object.keys(changes ?? {})) fields.add(field);
    for (const field of impliedBy[event] ?? []) fields.add(field);
  }
  return [...fields];
}

function fieldErrors(fields: string[], since: number, representation: object): FieldError[] {
  const values = representation as Record<string, unknown>;
  return fields.map((field) => ({
    field,
    message: `changed since version ${since}; now ${JSON.stringify(values[field] ?? null)}`,
  }));
}
