import { eventRule, withoutNames } from './event-catalogue';

/** An event's body as stored: `{event, timestamp, data, changes?, actor, requestId}`. */
interface EventBody {
  event: string;
  data: unknown;
  changes?: unknown;
  [field: string]: unknown;
}

/**
 * The body of an event that names the erased employee `employeeId`, its `data` redacted by its rule in the
 * catalogue (event-catalogue.ts; docs/api-decisions.md, "Data protection") and `changes` dropped. Every other
 * field, and the fields' order, stay. An event of a name this release does not record keeps its shape with the
 * employee's names set to null.
 */
export function redactedEventBody(body: Buffer, employeeId: string): Buffer {
  const { changes: _dropped, ...parsed } = JSON.parse(body.toString('utf8')) as EventBody;
  const rule = eventRule(parsed.event);
  const redacted = rule ? rule.redact(parsed.data, employeeId) : withoutNames(parsed.data, employeeId);
  return Buffer.from(JSON.stringify({ ...parsed, data: redacted }), 'utf8');
}
