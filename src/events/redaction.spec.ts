import { redactedEventBody } from './redaction';

const employeeId = '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e6f';
const actor = { type: 'api_key', id: 'k' };

function redact(body: object): unknown {
  return JSON.parse(redactedEventBody(Buffer.from(JSON.stringify(body)), employeeId).toString('utf8'));
}

describe('redactedEventBody', () => {
  it('reduces an employee event to the id and drops its changes, keeping every other field in order', () => {
    const body = {
      event: 'employee.updated',
      timestamp: '2026-01-31T09:00:00.000Z',
      data: { id: employeeId, firstName: 'Ada', businessEmail: 'ada@example.com' },
      changes: { firstName: { previous: 'Grace', current: 'Ada' } },
      actor,
      requestId: 'r',
    };
    const redacted = redact(body);
    expect(redacted).toEqual({
      event: 'employee.updated',
      timestamp: body.timestamp,
      data: { id: employeeId },
      actor,
      requestId: 'r',
    });
    expect(Object.keys(redacted as object)).toEqual(['event', 'timestamp', 'data', 'actor', 'requestId']);
  });

  it.each(['skill.rated', 'employee_skill.deleted'])('reduces %s to the employee id', (event) => {
    const body = { event, timestamp: 't', data: { employeeId, rating: { comment: 'secret' } }, actor, requestId: null };
    expect(redact(body)).toEqual({ ...body, data: { employeeId } });
  });

  it("sets the employee's names to null in any other event, keeping its shape", () => {
    const data = { id: 'p', name: 'Head of Data', replacesPerson: { id: employeeId, firstName: 'Ada', lastName: 'L' } };
    const body = { event: 'position.updated', timestamp: 't', data, actor, requestId: null };
    expect(redact(body)).toEqual({
      ...body,
      data: { ...data, replacesPerson: { id: employeeId, firstName: null, lastName: null } },
    });
  });
});
