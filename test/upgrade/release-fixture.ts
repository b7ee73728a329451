import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import {
  ANSWERS_FILE,
  DUMP_FILE,
  EXPORT_FILE,
  FIXTURE_FILE,
  KEYS_LIST_FILE,
  MIGRATE_STATUS_FILE,
  type Answer,
  type Fixture,
} from '../fixtures/release-0.1.0/layout.js';

/** Where the fixture made with release 0.1.0 lives (its README says how it was made). */
export const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/release-0.1.0/', import.meta.url));

/** Everything release 0.1.0 left and answered, read from the fixture's files. */
export interface ReleaseFixture extends Fixture {
  dumpPath: string;
  answers: Answer[];
  migrateStatus: { executed: { name: string; executedAt: string }[]; pending: string[] };
  keysList: unknown;
  exported: string;
  /** The answer captured for the read called `name`. */
  answer(name: string): Answer;
}

export function readReleaseFixture(): ReleaseFixture {
  const text = (file: string) => readFileSync(join(FIXTURE_DIR, file), 'utf8');
  const fixture = JSON.parse(text(FIXTURE_FILE)) as Fixture;
  const answers = JSON.parse(text(ANSWERS_FILE)) as Answer[];
  return {
    ...fixture,
    dumpPath: join(FIXTURE_DIR, DUMP_FILE),
    answers,
    migrateStatus: JSON.parse(text(MIGRATE_STATUS_FILE)),
    keysList: JSON.parse(text(KEYS_LIST_FILE)),
    exported: text(EXPORT_FILE),
    answer(name) {
      const found = answers.find((answer) => answer.name === name);
      if (!found) throw new Error(`the fixture has no read called "${name}"`);
      return found;
    },
  };
}
