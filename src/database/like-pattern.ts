/** Escapes LIKE's wildcards so a search term matches literally (`\` is PostgreSQL's default LIKE escape). */
export function escapeLikePattern(term: string): string {
  return term.replace(/[\\%_]/g, (character) => `\\${character}`);
}
