import { ValidateBy, ValidationOptions } from 'class-validator';

// A calendar date, or a date and time with an optional offset; no week or ordinal dates.
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Parses an ISO 8601 date or date-time into a Date, or null when it is not one or names no real
 * instant (2026-02-30, 25:00). A value without an offset is read as UTC, never as server local time.
 */
export function parseIsoDateTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const match = ISO_DATE_TIME.exec(value);
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00'] = match;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  // Date.UTC rolls 2026-02-30 over to March; comparing the parts back catches it.
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (
    calendar.getUTCFullYear() !== Number(year) ||
    calendar.getUTCMonth() !== Number(month) - 1 ||
    calendar.getUTCDate() !== Number(day)
  ) {
    return null;
  }
  let normalised = value.replace(' ', 'T').toUpperCase();
  if (match[4] === undefined) normalised += 'T00:00:00Z';
  else if (match[7] === undefined) normalised += 'Z';
  else if (/[+-]\d{4}$/.test(normalised)) normalised = `${normalised.slice(0, -2)}:${normalised.slice(-2)}`;
  else if (/[+-]\d{2}$/.test(normalised)) normalised += ':00';
  const instant = new Date(normalised);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

/** Accepts what parseIsoDateTime accepts; the value stays a string and the service parses it. */
export function IsIsoDateTime(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIsoDateTime',
      validator: {
        validate: (value: unknown) => parseIsoDateTime(value) !== null,
        defaultMessage: () => '$property must be an ISO 8601 date or date-time (2026-01-31, 2026-01-31T09:00:00Z)',
      },
    },
    options,
  );
}

/** An optional date-time from a validated DTO: undefined stays undefined, null stays null. */
export function toDateOrNull(value: string | null | undefined): Date | null | undefined {
  if (value === undefined || value === null) return value;
  return parseIsoDateTime(value);
}
