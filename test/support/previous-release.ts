import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Set by .ci/mixed-version-pass: a directory holding the previous release, installed and built (dist/). */
export const PREVIOUS_RELEASE_DIR_ENV = 'PREVIOUS_RELEASE_DIR';

/** The release this commit follows, as .ci/previous-release names it: its commit and its version. */
export function previousRelease(): { commit: string; version: string; dir?: string } {
  const line = readFileSync(join(__dirname, '..', '..', '.ci', 'previous-release'), 'utf8').trim();
  const [commit, version] = line.split(/\s+/);
  if (!/^[0-9a-f]{40}$/.test(commit) || !/^\d+\.\d+\.\d+$/.test(version ?? '')) {
    throw new Error(`.ci/previous-release holds "${line}", not "<commit sha> <version>"`);
  }
  return { commit, version, dir: process.env[PREVIOUS_RELEASE_DIR_ENV] || undefined };
}
