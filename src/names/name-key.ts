/**
 * The form in which two names are compared (decisions.md, "A skills catalogue"): Unicode NFKC, lower case,
 * accents removed (NFKD, combining marks dropped) and every run of white space made one space. Every path that
 * compares skill or alias names compares these keys, and the database stores them, so there is one rule.
 * Leading and trailing space is kept as one space: `"  Java Script"` stays apart from `"java script"`.
 */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/\s+/gu, ' ');
}
