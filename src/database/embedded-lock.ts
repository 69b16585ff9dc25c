import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export class EmbeddedDatabaseInUseError extends Error {}

/** Directories this process has open: a lock naming our own pid is stale only if we do not hold it. */
const openHere = new Set<string>();

/**
 * A lock file holding the pid of the process that has the database open. A lock whose process is gone is
 * stale and taken over, and so is one naming this very process's pid when this process does not hold it:
 * a container restarted after a crash runs node as pid 1 again and must not wait for itself.
 */
export function acquireEmbeddedLock(path: string): () => void {
  if (openHere.has(path)) throw new EmbeddedDatabaseInUseError(inUseMessage(path, process.pid));
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      openHere.add(path);
      return () => {
        openHere.delete(path);
        rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8'));
      if (holder !== process.pid && isAlive(holder)) throw new EmbeddedDatabaseInUseError(inUseMessage(path, holder));
      rmSync(path, { force: true }); // left behind by a process that died
    }
  }
}

function inUseMessage(path: string, holder: number): string {
  return (
    `The embedded database in ${resolve(path, '..')} is in use by another process (pid ${holder}); ` +
    'stop it first, or set DATABASE_URL to use PostgreSQL'
  );
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
