import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Which test files `npm test` runs and which `npm run test:full` runs (scripts/test-suite.ts runs
 * them; docs/testing.md says why). `npm test` is the quick suite: every file not named here, on the
 * embedded database, in about three minutes on two cores. The files named here are the heavy part:
 * crash, kill -9, outage, scale and load tests, the upgrade from a release, and the slowest suites
 * of child processes; chosen from each file's measured time (FEEDBACK_TEST_TIMES in
 * test/helpers/file-times.ts), the slowest first, until the quick suite fit its budget.
 */
export const FULL_ONLY: readonly string[] = [
  // Crashes, kill -9, outages and races against them.
  'test/security/crash.test.ts',
  'test/security/webhook-delivery.test.ts',
  'test/server/in-doubt-commits.test.ts',
  'test/server/database-outage.test.ts',
  'test/server/notification-mail-crash.test.ts',
  'test/server/rate-limit-redis.test.ts',
  'test/cli/child-cleanup.test.ts',
  // Scale and load.
  'test/server/notifications-scale.test.ts',
  'test/server/webhook-pull-waiters.test.ts',
  'test/server/webhook-sender-claims.test.ts',
  'test/server/contention.test.ts',
  'test/server/vote-concurrency.test.ts',
  'test/server/admin-concurrency.test.ts',
  // The upgrade from a released version's database.
  'test/upgrade/from-release-0.1.0.test.ts',
  // The slowest suites of `feedback` child processes and of timed-out deliveries.
  'test/cli/transfer.test.ts',
  'test/cli/transfer-while-serving.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/metrics.test.ts',
  'test/cli/workers.test.ts',
  'test/server/webhooks.test.ts',
  'test/server/webhook-listeners.test.ts',
  'test/server/webhook-chat-formats.test.ts',
  'test/server/notification-holds.test.ts',
  'test/cli/no-accidental-data.test.ts',
  'test/cli/seed.test.ts',
  'test/cli/open.test.ts',
  'test/cli/webhooks-listen.test.ts',
  'test/cli/login.test.ts',
  'test/cli/node-floor.test.ts',
  // The transfers (export and import of whole databases) and the erasure of a user across every table.
  'test/server/transfer.test.ts',
  'test/server/transfer-moderation.test.ts',
  'test/server/user-erasure.test.ts',
  // The slowest browser suites: the quick suite keeps the others, so a change to a page still meets Chromium there.
  'test/browser/board-comments.test.ts',
  'test/browser/triage.test.ts',
  'test/browser/changelog.test.ts',
  'test/browser/team-languages.test.ts',
  'test/browser/board-list.test.ts',
  'test/browser/widget.test.ts',
  'test/browser/item-pages.test.ts',
  'test/browser/languages.test.ts',
  // The widget's and the board's conversation suites: their servers and pages, many of them.
  'test/server/widget.test.ts',
  'test/web/board-comments.test.ts',
  // Packs and installs every package: run alone, last (PACK_INSTALL).
  'test/packaging/pack-install.test.ts',
];

/** `npm pack` rebuilds every package's dist, which the other suites load: this file runs on its own, after them. */
export const PACK_INSTALL = 'test/packaging/pack-install.test.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every test file, relative to the repository's root, sorted. */
export function allTestFiles(dir = 'test'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : allTestFiles(path);
      return entry.name.endsWith('.test.ts') ? [path] : [];
    })
    .sort();
}

/** The files of `npm test`. */
export function quickFiles(): string[] {
  return allTestFiles().filter((file) => !FULL_ONLY.includes(file));
}

/**
 * The quick files with suites on every backend (`backends()` of test/helpers/backends.ts): their
 * PostgreSQL variants are part of `npm run test:full`. A file on `oneBackend()` runs once, in `npm test`.
 */
export function quickFilesOnEveryBackend(): string[] {
  return quickFiles().filter((file) => /\bbackends\(\)/.test(readFileSync(join(ROOT, file), 'utf8')));
}
