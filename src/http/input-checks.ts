import type { FieldError } from '../errors/errors';

/** Containers nested deeper than this are refused, so validation never recurses without bound. */
export const MAX_JSON_DEPTH = 32;

// Names an object inherits (`__proto__`, `constructor`, `toString`, …): class-validator's whitelist mistakes
// some of them for declared properties, so they are refused here like any other unknown field.
const INHERITED_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

interface Pending {
  value: unknown;
  path: string;
  depth: number;
}

/**
 * The first thing in a parsed JSON body or query that no field may hold, as the field it is in: a name
 * of an inherited object member, a U+0000 character or an unpaired UTF-16 surrogate (PostgreSQL and
 * many clients cannot hold either), or containers nested deeper than MAX_JSON_DEPTH. Walks iteratively,
 * so any depth is safe to look at.
 */
export function findInputProblem(root: object): FieldError | null {
  const stack: Pending[] = [{ value: root, path: '', depth: 1 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    const children: Pending[] = [];
    for (const [field, item, key] of entriesOf(value, path)) {
      if (key !== undefined) {
        if (INHERITED_MEMBERS.has(key)) return { field, message: `property ${key} should not exist` };
        const problem = stringProblem(key, field);
        if (problem) return problem;
      }
      if (typeof item === 'string') {
        const problem = stringProblem(item, field);
        if (problem) return problem;
      } else if (typeof item === 'object' && item !== null) {
        if (depth >= MAX_JSON_DEPTH)
          return { field, message: `${field} is nested deeper than ${MAX_JSON_DEPTH} levels` };
        children.push({ value: item, path: field, depth: depth + 1 });
      }
    }
    // Reversed, so the stack hands them back in the order they were written.
    stack.push(...children.reverse());
  }
  return null;
}

/** [field path, value, key] of each member: `a.b` in objects (with the key), `a[0]` in arrays. */
function entriesOf(container: unknown, path: string): [string, unknown, string?][] {
  if (Array.isArray(container)) return container.map((item, index) => [`${path}[${index}]`, item]);
  return Object.entries(container as object).map(([key, item]) => [path ? `${path}.${key}` : key, item, key]);
}

function stringProblem(text: string, field: string): FieldError | null {
  if (text.includes('\u0000')) return { field, message: `${field} must not contain the character U+0000` };
  if (!text.isWellFormed()) return { field, message: `${field} must be well-formed Unicode (no unpaired surrogate)` };
  return null;
}
