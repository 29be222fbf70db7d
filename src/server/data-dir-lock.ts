import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRODUCT_NAME } from '../shared/product.js';

/** Thrown when another live server holds the data directory. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
  /** What holds it: `server`, `backup`, `restore`. */
  purpose?: string;
}

/** Locks this process holds, so a lock file naming our own pid but not ours (pid reuse after a restart) counts as stale. */
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `DATA_DIR/server.lock` so two servers never open one PGlite directory (which corrupts it).
 * A lock left by a process that no longer runs (a kill -9, a power cut) is taken over.
 * Returns the function that releases it (see docs/architecture.md, "The data directory lock").
 */
export function acquireDataDirLock(dataDir: string, purpose = 'server'): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  const mine: LockInfo = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), purpose };

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx', 0o600);
      fs.writeSync(fd, JSON.stringify(mine));
      fs.closeSync(fd);
      heldHere.add(lockPath);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        heldHere.delete(lockPath);
        process.removeListener('exit', release);
        try {
          const current = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as LockInfo;
          if (current.pid === mine.pid && current.startedAt === mine.startedAt) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }

    let holder: LockInfo | undefined;
    let seen = '';
    try {
      seen = fs.readFileSync(lockPath, 'utf8');
      holder = JSON.parse(seen) as LockInfo;
    } catch {
      holder = undefined; // Half-written or unreadable: treat as stale.
    }
    // A container restarted after a kill can give the new server the pid the old one had.
    const ownPidReused = holder?.pid === process.pid && !heldHere.has(lockPath);
    if (holder && holder.host === mine.host && !ownPidReused && isAlive(holder.pid)) {
      const what = holder.purpose && holder.purpose !== 'server' ? `npm run ${holder.purpose}` : 'server';
      throw new DataDirLockedError(
        `Another ${PRODUCT_NAME} ${what} (process ${holder.pid}, started ${holder.startedAt}) is using the data directory ${dataDir}. ` +
          'Two servers on one embedded database would corrupt it: stop the other server, or set DATA_DIR to another folder ' +
          '(or DATABASE_URL to share a PostgreSQL database between servers).',
      );
    }
    if (holder && holder.host !== mine.host) {
      throw new DataDirLockedError(
        `The data directory ${dataDir} is locked by a server on host ${holder.host} (process ${holder.pid}). ` +
          `If that server is gone, delete ${lockPath} and start again.`,
      );
    }
    // Remove the stale lock only if it is still the one we judged: another starter may have replaced it.
    let current = '';
    try {
      current = fs.readFileSync(lockPath, 'utf8');
    } catch {
      continue;
    }
    if (current === seen) fs.rmSync(lockPath, { force: true });
  }
  throw new DataDirLockedError(`Could not take the lock ${lockPath}; another server is starting on the same data directory.`);
}
