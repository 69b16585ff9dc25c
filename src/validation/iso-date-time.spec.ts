import { parseIsoDateTime } from './iso-date-time';

describe('parseIsoDateTime', () => {
  it.each([
    ['2026-01-31', '2026-01-31T00:00:00.000Z'],
    ['2026-01-31T09:00:00Z', '2026-01-31T09:00:00.000Z'],
    ['2026-01-31T09:00:00.123Z', '2026-01-31T09:00:00.123Z'],
    ['2026-01-31T09:00:00+02:00', '2026-01-31T07:00:00.000Z'],
    ['2026-01-31T09:00:00-0130', '2026-01-31T10:30:00.000Z'],
    ['2026-01-31T09:00+01', '2026-01-31T08:00:00.000Z'],
    ['2026-01-31T09:00:00', '2026-01-31T09:00:00.000Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(parseIsoDateTime(input)?.toISOString()).toBe(expected);
  });

  it.each([
    '',
    'yesterday',
    '2026-02-30',
    '2026-13-01',
    '2026-01-31T25:00:00Z',
    '2026-W05',
    '2026-031',
    1769850000000,
    null,
  ])('rejects %p', (input) => {
    expect(parseIsoDateTime(input)).toBeNull();
  });
});
