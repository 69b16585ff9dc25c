/**
 * A position in PostgreSQL's write-ahead log as pg_lsn writes it ("16/B374D848"), as a number that compares;
 * undefined for anything else.
 */
export function parseLogPosition(text: string | undefined): bigint | undefined {
  const match = text === undefined ? null : /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}
