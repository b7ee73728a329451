import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Context } from 'mocha';

/**
 * Root hooks that, when FEEDBACK_TEST_TIMES names a file, append to it one line per test file: its
 * wall time in seconds and its path. In a parallel run every file is a root suite of its own in a
 * worker, so the root's beforeAll and afterAll bracket exactly one file. How the suite was split
 * into `npm test` and `npm run test:full` was decided from these lines (docs/testing.md).
 */
const started = new Map<string, number>();

function filesOf(context: Context): string[] {
  const root = context.test?.parent;
  return [...new Set((root?.suites ?? []).map((suite) => suite.file).filter((file): file is string => !!file))];
}

export const fileTimeHooks = {
  beforeAll(this: Context): void {
    for (const file of filesOf(this)) started.set(file, performance.now());
  },
  afterAll(this: Context): void {
    const out = process.env.FEEDBACK_TEST_TIMES;
    if (!out) return;
    for (const file of filesOf(this)) {
      const start = started.get(file);
      if (start === undefined) continue;
      appendFileSync(out, `${((performance.now() - start) / 1000).toFixed(1)}\t${relative(process.cwd(), file)}\n`);
    }
  },
};
