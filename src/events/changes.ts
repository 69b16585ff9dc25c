/** What a change altered, field by field, in the API's representation: `changes` of the `*.updated` events. */
export type Changes = Record<string, { previous: unknown; current: unknown }>;

/**
 * The fields of two API representations of one resource (before and after a change) whose values differ,
 * in the order of `after`; `updatedAt` and `version` move on every change, so they are left out.
 */
export function changesBetween<T extends object>(before: T, after: T): Changes {
  const changes: Changes = {};
  for (const [field, current] of Object.entries(after)) {
    if (field === 'updatedAt' || field === 'version') continue;
    const previous: unknown = (before as Record<string, unknown>)[field];
    // Representations are JSON values (dates as strings), so their JSON text compares them.
    if (JSON.stringify(previous) !== JSON.stringify(current)) changes[field] = { previous, current };
  }
  return changes;
}
