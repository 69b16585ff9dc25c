import type { DomainEventMap, DomainEventName } from './domain-events';

/** What the service does with one kind of event: every rule of an event in one entry. */
export interface EventRule<Data> {
  /** Whether webhooks carry it (the spec's five) or only the feed (GET /events). */
  webhooks: boolean;
  /**
   * The employee the event names (null: none), stored beside it: erasure redacts, and the personal-data export
   * lists, the events found by it (docs/api-decisions.md, "Data protection").
   */
  subject(data: Data): string | null;
  /**
   * What is kept of `data` (the event's, or the kept response of the request that recorded it) once the employee
   * `employeeId` it names is erased.
   */
  redact(data: Data, employeeId: string): unknown;
}

/** A rule for every event name: a name a feature declares without an entry here does not compile. */
export type EventCatalogue = { [Name in DomainEventName]: EventRule<DomainEventMap[Name]> };

/** An employee's own event: only their id is kept. */
const aboutTheEmployee = {
  subject: (employee: { id: string }) => employee.id,
  redact: (_data: unknown, employeeId: string) => ({ id: employeeId }),
};

/** An event about one of the employee's skills or ratings: only the employee's id is kept. */
const aboutTheirSkills = {
  subject: (data: { employeeId: string }) => data.employeeId,
  redact: (_data: unknown, employeeId: string) => ({ employeeId }),
};

/** An event that names no employee: nothing to redact. */
const aboutNoEmployee = { subject: () => null, redact: (data: unknown) => data };

/**
 * Every event the service records, once (docs/api-decisions.md, "Events" and "Data protection"). Redaction
 * (redaction.ts), the redaction of kept Idempotency-Key responses (idempotency/), the names webhooks subscribe to
 * and the employee stored beside each event (domain-events.ts) all read it; a new event is one entry here.
 */
export const EVENT_CATALOGUE: EventCatalogue = {
  'employee.created': { webhooks: true, ...aboutTheEmployee },
  'employee.updated': { webhooks: true, ...aboutTheEmployee },
  'employee.deactivated': { webhooks: true, ...aboutTheEmployee },
  'employee.erased': { webhooks: false, ...aboutTheEmployee },
  'skill.rated': { webhooks: true, ...aboutTheirSkills },
  'employee_skill.deleted': { webhooks: false, ...aboutTheirSkills },
  'position.updated': {
    webhooks: true,
    subject: (position) => position.replacesPerson?.id ?? null,
    // The position keeps its shape; the person it replaces keeps only their id.
    redact: (position, employeeId) => withoutNames(position, employeeId),
  },
  'skill.created': { webhooks: false, ...aboutNoEmployee },
  'skill.updated': { webhooks: false, ...aboutNoEmployee },
  'skill.deleted': { webhooks: false, ...aboutNoEmployee },
  'skill_group.created': { webhooks: false, ...aboutNoEmployee },
  'skill_group.updated': { webhooks: false, ...aboutNoEmployee },
  'skill_group.deleted': { webhooks: false, ...aboutNoEmployee },
};

/** The rule of `name`, or undefined for a name this release does not record (an event of another release). */
export function eventRule(name: string): EventRule<unknown> | undefined {
  return Object.hasOwn(EVENT_CATALOGUE, name) ? EVENT_CATALOGUE[name as DomainEventName] : undefined;
}

/** `value` with the names of every reference to the employee (`{id, firstName, lastName}`) set to null. */
export function withoutNames(value: unknown, employeeId: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutNames(item, employeeId));
  if (value === null || typeof value !== 'object') return value;
  const object = Object.fromEntries(
    Object.entries(value).map(([field, item]) => [field, withoutNames(item, employeeId)]),
  ) as Record<string, unknown>;
  if (object.id !== employeeId) return object;
  for (const field of ['firstName', 'lastName']) if (field in object) object[field] = null;
  return object;
}
