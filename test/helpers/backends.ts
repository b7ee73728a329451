import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseLocation } from '@feedbackd/server';
import { scratchRoot } from './scratch.js';
import { blankEmbeddedDir, databaseUrl, embeddedTemplateDir, postgresTemplateName, withClient } from './templates.js';

/** A database of one test suite, and how to throw it away. */
export interface FreshDatabase {
  location: DatabaseLocation;
  drop(): Promise<void>;
}

/** A database backend the suites run on. */
export interface Backend {
  name: 'embedded' | 'postgres';
  /**
   * A truly fresh database: nothing in it, not even the schema. For what a migration, an import
   * or a restore does on it. (The embedded one is a copy of a blank cluster, as PGlite's first
   * start leaves it, which is seconds quicker than creating one; a test of that first start makes
   * its own empty data directory.)
   */
  create(): Promise<FreshDatabase>;
  /**
   * A migrated, empty database (a copy of the run's template, see templates.ts): the schema, and
   * no project or key yet, so a server started on it still mints the first key. Seconds quicker
   * than create() plus the migrations, for every suite that does not test those.
   */
  createMigrated(): Promise<FreshDatabase>;
}

function embeddedAt(dataDir: string): FreshDatabase {
  return { location: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

const embedded: Backend = {
  name: 'embedded',
  async create() {
    return embeddedAt(copyTemplate(blankEmbeddedDir(), mkdtempSync(join(scratchRoot(), 'feedback-test-'))));
  },
  async createMigrated() {
    return embeddedAt(copyEmbeddedTemplate(mkdtempSync(join(scratchRoot(), 'feedback-test-'))));
  },
};

/**
 * Makes `dataDir` (absent or empty) a migrated, empty embedded database, as `feedback migrate
 * --data-dir` would, by copying the run's template: for a CLI test whose subject is not the
 * migration, so it does not spend seconds migrating in a child process. Returns `dataDir`.
 */
export function copyEmbeddedTemplate(dataDir: string): string {
  return copyTemplate(embeddedTemplateDir(), dataDir);
}

function copyTemplate(template: string, dataDir: string): string {
  // Only the database files: the template's owner has closed them, and its lock file and socket are gone with it.
  cpSync(join(template, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
  return dataDir;
}

/** A database of its own on the TEST_DATABASE_URL server, so suites never see each other's rows. */
function postgres(adminUrl: string): Backend {
  const createFrom = async (template: string | undefined): Promise<FreshDatabase> => {
    const name = `feedback_test_${randomBytes(6).toString('hex')}`;
    await withClient(adminUrl, (client) => client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`));
    return {
      location: { databaseUrl: databaseUrl(adminUrl, name), dataDir: '' },
      drop: () => withClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => {}),
    };
  };
  return {
    name: 'postgres',
    create: () => createFrom(undefined),
    createMigrated: () => createFrom(postgresTemplateName()),
  };
}

/**
 * Names the only backends to run (`postgres`), of those the variables give: `npm run test:full`
 * runs the quick files' PostgreSQL variants with it, their embedded ones having run in `npm test`.
 */
export const ONLY_BACKENDS_VARIABLE = 'FEEDBACK_TEST_BACKENDS';

/** The embedded database always; PostgreSQL as well when TEST_DATABASE_URL is set (FEEDBACK_TEST_BACKENDS keeps only those it names). */
export function backends(): Backend[] {
  const url = process.env.TEST_DATABASE_URL;
  const all = url ? [embedded, postgres(url)] : [embedded];
  const only = process.env[ONLY_BACKENDS_VARIABLE]?.split(',');
  return only ? all.filter((backend) => only.includes(backend.name)) : all;
}

/**
 * The one backend of a suite whose subject does not depend on the database: what a browser draws
 * and does on the pages, or how the HTTP layer answers slow, hostile or refused requests before
 * any statement of theirs runs. PostgreSQL when the tests have it, else the embedded database. The
 * statements behind them run on both backends in the other suites (test/web/, test/server/);
 * running these on both as well doubled their time (the browser suites alone were a third of the
 * suite's) for nothing they can tell apart. `npm test`, which ignores TEST_DATABASE_URL, runs
 * them on the embedded one (so the quick files on one backend have no PostgreSQL run in `npm run test:full`).
 */
export function oneBackend(): Backend {
  return backends().at(-1)!;
}

export const embeddedBackend = embedded;

/** A database that exists already (a restart on the same data, a server of the test's own), as a backend that never drops it. */
export function backendAt(name: Backend['name'], location: DatabaseLocation): Backend {
  const same = async (): Promise<FreshDatabase> => ({ location, drop: async () => {} });
  return { name, create: same, createMigrated: same };
}
