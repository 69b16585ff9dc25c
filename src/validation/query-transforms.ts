/** Query values arrive as strings: turn whole-number strings into numbers and leave the rest for validation to reject. */
export function toIntegerIfDigits(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
}

/** Only the exact strings 'true' and 'false' become booleans; anything else stays and fails validation. */
export function toBooleanIfLiteral(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}
