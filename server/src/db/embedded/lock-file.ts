import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** How other processes reach the database a lock holder serves. */
export type SocketAddress = { path: string } | { host: string; port: number };

/** What the lock file says: who owns the data directory, and where it serves it once it is ready. */
export interface LockInfo {
  pid: number;
  socket?: SocketAddress;
}

export const LOCK_FILE_NAME = 'feedback.lock';

/**
 * The lock that makes one process the owner of an embedded data directory.
 *
 * PGlite takes no lock of its own: two processes opening one directory corrupt it. The owner
 * creates the lock file exclusively and records its pid and, once listening, its socket; any
 * other process reads the file and connects to that socket instead of opening the files.
 */
export class DataDirLock {
  private constructor(private readonly file: string) {}

  /** Takes the lock, or returns the live owner's lock info when another process holds it. */
  static acquire(dataDir: string): DataDirLock | LockInfo {
    const file = join(dataDir, LOCK_FILE_NAME);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        writeSync(fd, JSON.stringify({ pid: process.pid } satisfies LockInfo));
        closeSync(fd);
        return new DataDirLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readLock(dataDir);
      if (holder && isAlive(holder.pid)) return holder;
      // The owner died without cleaning up (a crash or kill -9): its lock is stale.
      rmSync(file, { force: true });
    }
    throw new Error(`could not lock ${dataDir}: another process keeps taking the lock`);
  }

  /** Publishes where the owner serves the database, for operator commands to connect to. */
  publish(socket: SocketAddress): void {
    writeFileSync(this.file, JSON.stringify({ pid: process.pid, socket } satisfies LockInfo), { mode: 0o600 });
  }

  release(): void {
    const holder = readLockFile(this.file);
    if (holder?.pid === process.pid) rmSync(this.file, { force: true });
  }
}

/** Reads the lock of a data directory, or undefined when there is none (or it is half-written). */
export function readLock(dataDir: string): LockInfo | undefined {
  return readLockFile(join(dataDir, LOCK_FILE_NAME));
}

function readLockFile(file: string): LockInfo | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && typeof (parsed as LockInfo).pid === 'number') return parsed as LockInfo;
    return undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
