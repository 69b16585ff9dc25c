import { EscoRowPlace } from './esco-input';

/** What an import did (or, with --dry-run, would do) with one kind of row. */
export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

/** A row, or a label of a row, the import left out, and why. */
export interface SkippedRow extends EscoRowPlace {
  reason: string;
}

/** The report of `skills import-esco` (decisions.md): counts for skills, groups and links, and each row skipped. */
export interface EscoImportReport {
  dryRun: boolean;
  skills: ImportCounts;
  groups: ImportCounts;
  /** Parent links of groups and group links of skills; links are only ever added. */
  links: ImportCounts;
  skipped: SkippedRow[];
}

export function noCounts(): ImportCounts {
  return { created: 0, updated: 0, unchanged: 0, skipped: 0 };
}
