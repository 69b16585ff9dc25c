import { requestTraceId, traceIdFromTraceparent } from './trace-context';

describe('traceIdFromTraceparent', () => {
  it('takes the trace id of a version 00 traceparent', () => {
    expect(traceIdFromTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
  });

  it('accepts a later version with more fields', () => {
    expect(traceIdFromTraceparent('01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra')).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
  });

  it.each([
    ['all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['upper-case hex', '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01'],
    ['a short trace id', '00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01'],
    ['garbage', 'hello'],
  ])('rejects %s', (_, header) => {
    expect(traceIdFromTraceparent(header)).toBeUndefined();
  });
});

describe('requestTraceId', () => {
  it('makes a new 32-hex-digit id without a valid traceparent', () => {
    const first = requestTraceId(undefined);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(requestTraceId('nonsense')).not.toBe(first);
  });
});
