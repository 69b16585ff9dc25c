/** An event's body as stored: `{event, timestamp, data, changes?, actor, requestId}`. */
interface EventBody {
  event: string;
  data: unknown;
  changes?: unknown;
  [field: string]: unknown;
}

/**
 * The body of an event that names the erased employee `employeeId`, redacted as decisions.md ("Data protection")
 * says: `data` becomes `{"id"}` for employee.* events and `{"employeeId"}` for those whose data is about one of
 * the employee's skills (skill.rated, employee_skill.deleted); any other event keeps its shape with the
 * employee's names set to null (position.updated's replacesPerson). `changes` is dropped. Every other field,
 * and the fields' order, stay.
 */
export function redactedEventBody(body: Buffer, employeeId: string): Buffer {
  const { changes: _dropped, ...parsed } = JSON.parse(body.toString('utf8')) as EventBody;
  const data = parsed.data as Record<string, unknown>;
  let redacted: unknown;
  if (parsed.event.startsWith('employee.')) redacted = { id: employeeId };
  else if (data.employeeId === employeeId) redacted = { employeeId };
  else redacted = withoutNames(data, employeeId);
  return Buffer.from(JSON.stringify({ ...parsed, data: redacted }), 'utf8');
}

/** `value` with the names of every reference to the employee (`{id, firstName, lastName}`) set to null. */
function withoutNames(value: unknown, employeeId: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutNames(item, employeeId));
  if (value === null || typeof value !== 'object') return value;
  const object = Object.fromEntries(
    Object.entries(value).map(([field, item]) => [field, withoutNames(item, employeeId)]),
  ) as Record<string, unknown>;
  if (object.id !== employeeId) return object;
  for (const field of ['firstName', 'lastName']) if (field in object) object[field] = null;
  return object;
}
