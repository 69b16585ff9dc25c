import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { previousRelease } from '../support/previous-release';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

const VERSION = (JSON.parse(read('package.json')) as { version: string }).version;
const SECTIONS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

/** CHANGELOG.md's releases, newest first: each `## [x.y.z] - date` with its `### …` headings. */
function releases(): Array<{ version: string; date: string; sections: string[] }> {
  const found: Array<{ version: string; date: string; sections: string[] }> = [];
  for (const line of read('CHANGELOG.md').split('\n')) {
    const release = /^## \[(.+?)\](?: - (.+))?$/.exec(line);
    if (release) found.push({ version: release[1], date: release[2] ?? '', sections: [] });
    const section = /^### (.+)$/.exec(line);
    if (section) found[found.length - 1].sections.push(section[1]);
  }
  return found;
}

const order = (version: string) => version.split('.').map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [order(a), order(b)];
  const index = x.findIndex((part, at) => part !== y[at]);
  return index >= 0 && x[index] > y[index];
};

describe('the release', () => {
  it('is a semantic version, the one the image is labelled with', () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const dockerfile = read('Dockerfile');
    const runStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(/org\.opencontainers\.image\.version="([^"]*)"/.exec(runStage)?.[1]).toBe(VERSION);
  });

  it('has a Keep a Changelog entry of its own, above the previous release CI compares it with', () => {
    const changelog = read('CHANGELOG.md');
    expect(changelog.startsWith('# Changelog\n')).toBe(true);
    expect(changelog).toContain('https://keepachangelog.com/en/1.1.0/');
    expect(changelog).toContain('https://semver.org/spec/v2.0.0.html');
    const listed = releases().filter(({ version }) => version !== 'Unreleased');
    expect(listed.length).toBeGreaterThanOrEqual(2);
    for (const { version, date, sections } of listed) {
      expect({ version, date }).toEqual({
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
      expect(sections.filter((section) => !SECTIONS.includes(section))).toEqual([]);
    }
    for (let index = 1; index < listed.length; index++) {
      expect({ [listed[index - 1].version]: newer(listed[index - 1].version, listed[index].version) }).toEqual({
        [listed[index - 1].version]: true,
      });
    }
    expect(listed[0].version).toBe(VERSION);
    // The mixed-version pass runs the release this one follows.
    expect(previousRelease().version).toBe(listed[1].version);
  });
});
