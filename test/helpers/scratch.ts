import { accessSync, constants, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** Set to a directory to make the suites' databases there (a tmpfs, say), whatever /dev/shm is. */
export const SCRATCH_VARIABLE = 'FEEDBACK_TEST_TMPDIR';
/** Free space /dev/shm needs before the suites use it: a database is 40 MB and grows; a container's default /dev/shm is 64 MB. */
const SHM_MIN_FREE_BYTES = 2 * 1024 ** 3;

let root: string | undefined;

/**
 * Where the suites make their embedded databases and the data directories of the CLI's tests:
 * /dev/shm when it is a writable tmpfs with room to spare, else the system's temporary directory.
 * An embedded database is about 1,100 files: on this project's 2-core machine creating them on
 * the disk (ext4 on a virtual disk) took about a second a copy, in memory 50 ms; and PGlite's own
 * writes are quicker there too.
 */
export function scratchRoot(): string {
  root ??= process.env[SCRATCH_VARIABLE] || (roomyShm() ? '/dev/shm' : tmpdir());
  return root;
}

function roomyShm(): boolean {
  try {
    accessSync('/dev/shm', constants.W_OK);
    const stats = statfsSync('/dev/shm');
    return stats.bavail * stats.bsize >= SHM_MIN_FREE_BYTES;
  } catch {
    return false;
  }
}
