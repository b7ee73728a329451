import { readdirSync, readFileSync } from 'node:fs';

/*
 * The resident memory of a process tree, read from /proc (Linux): what the memory bench reports.
 * RSS counts each process's pages in full, the pages it shares with its siblings (Node's code, a
 * cluster's forked workers) too, so the sum over a tree is an upper bound; PSS divides every shared
 * page among the processes that map it, so its sum is what the tree costs the machine.
 */

/** One process of the tree: its pid, its command's name, and its memory in bytes. */
export interface ProcessMemory {
  pid: number;
  name: string;
  rss: number;
  pss: number;
}

/** The tree's processes and their sums. */
export interface TreeMemory {
  processes: ProcessMemory[];
  rss: number;
  pss: number;
}

/** `root` and every process descended from it, as they are now (a pid that exits meanwhile is skipped). */
export function treeMemory(root: number): TreeMemory {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readOrNull(`/proc/${entry}/stat`);
    // The command's name may hold spaces and parentheses: the fields start after the last ')'.
    if (stat) parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  }
  const processes = tree.flatMap((pid) => {
    const status = readOrNull(`/proc/${pid}/status`);
    if (!status) return [];
    const rollup = readOrNull(`/proc/${pid}/smaps_rollup`) ?? '';
    return [{ pid, name: /^Name:\s*(.*)$/m.exec(status)?.[1] ?? '?', rss: kilobytes(status, 'VmRSS') * 1024, pss: kilobytes(rollup, 'Pss') * 1024 }];
  });
  return { processes, rss: sum(processes.map((p) => p.rss)), pss: sum(processes.map((p) => p.pss)) };
}

function kilobytes(text: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s*(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Bytes as whole megabytes (MiB), for a table. */
export function mb(bytes: number): string {
  return String(Math.round(bytes / 1024 / 1024));
}
