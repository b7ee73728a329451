import type { ChildProcess } from 'node:child_process';

/*
 * Every process a test helper spawns is tracked here and ended when its test (or its file) is
 * over, passed or failed: a test that times out used to leave its `feedback serve` running, with
 * its workers, for the rest of the run, and their load made the next tests time out in turn.
 *
 * The helpers spawn each child detached, so it leads a process group of its own and killing the
 * group ends the workers a `serve --workers N` forks as well, not just their primary.
 */

type Scope = 'test' | 'file';

const tracked = new Map<ChildProcess, Scope>();
/** Whether a test (its beforeEach, body and afterEach hooks) is running, as opposed to a before/after hook. */
let scope: Scope = 'file';

/** How long a child gets to end on SIGTERM before its whole group gets SIGKILL. */
const GRACE_MS = 2000;

/** Tracks `child` (spawned with `detached: true`) until it has exited; it is ended with its test, or with its file if spawned in a before hook. */
export function track(child: ChildProcess): ChildProcess {
  if (child.pid === undefined) return child;
  tracked.set(child, scope);
  // Once the leader is gone, only a leftover of its group could still need ending: kept until then.
  child.once('exit', () => {
    if (!groupAlive(child.pid!)) tracked.delete(child);
  });
  return child;
}

/** Whether any process of the group `pid` leads is still running. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    // EPERM would mean a process we may not signal holds the id: not one of ours.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Ends the group of `child`: SIGTERM, then SIGKILL to whatever of it is left after the grace. */
export async function endGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid!;
  if (groupAlive(pid)) {
    signalGroup(pid, 'SIGTERM');
    const deadline = Date.now() + GRACE_MS;
    while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    signalGroup(pid, 'SIGKILL');
    // SIGKILL cannot be refused: only the kernel's reaping is left to wait for.
    while (groupAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  tracked.delete(child);
}

/** Ends every tracked child of `which` scope still running (all of them without an argument). */
export async function endTracked(which?: Scope): Promise<void> {
  const ending = [...tracked].filter(([, owner]) => which === undefined || owner === which).map(([child]) => endGroup(child));
  await Promise.all(ending);
}

function endAllNow(): void {
  for (const child of tracked.keys()) signalGroup(child.pid!, 'SIGKILL');
  tracked.clear();
}

// A mocha worker that ends (or is told to) takes its children with it: detached, they would outlive it.
process.on('exit', endAllNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    endAllNow();
    // Alone, this listener stood in for the default action (ending this process): gone now, it applies again.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

/**
 * Root hooks (a root hook plugin, loaded through .mocharc.json's `require`, so they apply to every
 * file, in parallel mode too): what a test started ends after it; what a before hook started ends
 * with the file, since the file's other tests may share it.
 */
export const mochaHooks = {
  beforeEach(): void {
    scope = 'test';
  },
  async afterEach(): Promise<void> {
    scope = 'file';
    await endTracked('test');
  },
  async afterAll(): Promise<void> {
    await endTracked();
  },
};
