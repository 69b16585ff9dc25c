/** Printable ASCII: NFKC and NFKD leave it as it is, it has no combining mark, and its only white space is ' '. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The form in which two names are compared (docs/api-decisions.md, "A skills catalogue"): Unicode NFKC, lower case,
 * accents removed (NFKD, combining marks dropped) and every run of white space made one space. Every path that
 * compares skill or alias names compares these keys, and the database stores them, so there is one rule.
 * Leading and trailing space is kept as one space: `"  Java Script"` stays apart from `"java script"`.
 * Most names are printable ASCII, for which the rule is lower case and single spaces (a tenth of resolve's work
 * at 1,000 names went to the normalisations).
 */
export function nameKey(name: string): string {
  if (PRINTABLE_ASCII.test(name)) return name.toLowerCase().replace(/ {2,}/g, ' ');
  return name.normalize('NFKC').toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/\s+/gu, ' ');
}
