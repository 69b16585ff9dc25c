import { redactedKeptBody } from './idempotency-keys.repository';

const employeeId = '019a6c1e-7a52-7c3e-9d1a-6b2f0c4d5e6f';
const envelope = (data: unknown) => JSON.stringify({ success: true, data });
const redact = (data: unknown, eventNames: string[] | null, statusCode = 201) =>
  JSON.parse(redactedKeptBody({ body: envelope(data), statusCode, eventNames }, employeeId)) as { data: unknown };

describe('redactedKeptBody', () => {
  it("redacts a response by its request's event rule in the catalogue", () => {
    expect(redact({ id: employeeId, firstName: 'Ada' }, ['employee.created']).data).toEqual({ id: employeeId });
    // A rating's response holds no employee id of its own: the event, not the shape, says whose it is.
    expect(redact({ id: 'r', comment: 'private' }, ['skill.rated']).data).toEqual({ employeeId });
    const position = { id: 'p', name: 'Head', replacesPerson: { id: employeeId, firstName: 'Ada', lastName: 'L' } };
    expect(redact(position, ['position.updated']).data).toEqual({
      ...position,
      replacesPerson: { id: employeeId, firstName: null, lastName: null },
    });
  });

  it('keeps lists (bulk answers) and error answers as they are', () => {
    const bulk = envelope([{ index: 0, status: 'created', id: employeeId }]);
    expect(redactedKeptBody({ body: bulk, statusCode: 200, eventNames: ['employee.created'] }, employeeId)).toBe(bulk);
    const error = JSON.stringify({ success: false, error: { code: 'VALIDATION_ERROR', message: 'x' } });
    expect(redactedKeptBody({ body: error, statusCode: 400, eventNames: null }, employeeId)).toBe(error);
  });

  it('redacts a response kept by 4.0.0, which names no event, as 4.0.0 did', () => {
    expect(redact({ id: employeeId, firstName: 'Ada' }, null).data).toEqual({ id: employeeId });
    expect(redact({ id: 'r', comment: 'private' }, null).data).toEqual({ employeeId });
  });
});
