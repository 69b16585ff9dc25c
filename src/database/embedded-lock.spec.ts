import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireEmbeddedLock, EmbeddedDatabaseInUseError } from './embedded-lock';

describe('acquireEmbeddedLock', () => {
  let dir: string;
  let lock: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skills-lock-'));
    lock = join(dir, 'embedded.lock');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes this process id and removes the file on release', () => {
    const release = acquireEmbeddedLock(lock);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock naming its own pid that it does not hold (a container restarted as pid 1)', () => {
    writeFileSync(lock, String(process.pid));
    const release = acquireEmbeddedLock(lock);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    release();
  });

  it('takes over a lock whose process is gone', () => {
    writeFileSync(lock, '2147483646');
    acquireEmbeddedLock(lock)();
  });

  it('refuses a lock held by another live process, naming it', () => {
    writeFileSync(lock, String(process.ppid));
    expect(() => acquireEmbeddedLock(lock)).toThrow(`in use by another process (pid ${process.ppid})`);
  });

  it('refuses a second open of a database this process holds', () => {
    const release = acquireEmbeddedLock(lock);
    expect(() => acquireEmbeddedLock(lock)).toThrow(EmbeddedDatabaseInUseError);
    release();
  });
});
