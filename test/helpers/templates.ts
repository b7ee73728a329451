import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { DatabaseLocation } from '@feedbackd/server';
import { pglitePackage, SERVER_URL } from './pglite-package.js';

/*
 * Migrating a new database takes seconds (PGlite: 5 to 9 s on a 2-core machine, and creating its
 * cluster a few more), and most suites only need one that is migrated and empty. So a suite gets a
 * copy of a template: the embedded data directory copied (under a second to copy and open), a
 * PostgreSQL database created from the template database. A template holds the schema and
 * nothing else: no project and no key, so a server started on a copy still creates the default
 * project and mints the first key, as on a fresh database.
 *
 * The embedded templates outlive the run, under node_modules/.cache (see embeddedTemplates): a run
 * whose migrations and PGlite are those of the last run starts at once instead of spending its
 * first 15 to 25 seconds, before any worker can start, on migrating. The PostgreSQL template is
 * made per run (it migrates in a second or two, beside the embedded one) and dropped after it.
 *
 * global-setup.ts sets them up once per mocha run (once for all workers of a parallel run) and
 * passes them on to the suites in these variables.
 */
export const TEMPLATE_DATA_DIR_VARIABLE = 'FEEDBACK_TEST_TEMPLATE_DATA_DIR';
export const BLANK_DATA_DIR_VARIABLE = 'FEEDBACK_TEST_BLANK_DATA_DIR';
export const TEMPLATE_DATABASE_VARIABLE = 'FEEDBACK_TEST_TEMPLATE_DATABASE';
/** A scratch directory of the run (made by global-setup.ts, removed after the run), for markers shared by its workers. */
export const RUN_DIR_VARIABLE = 'FEEDBACK_TEST_RUN_DIR';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'feedback-test');

/** The two embedded templates, each a data directory whose pgdata a suite copies. */
export interface EmbeddedTemplates {
  /** A cluster as PGlite creates it on a first start: no migration run. */
  blank: string;
  /** The blank cluster with every migration applied. */
  migrated: string;
}

/**
 * The embedded templates of this checkout, made when the cache has none for its migrations and
 * PGlite. Each is named by a hash of what makes it (the built migrations, PGlite's version), so an
 * edited migration or a new PGlite gets new ones, and made under a temporary name then renamed:
 * a run beside this one either finds the finished directory or makes its own, and the second
 * rename loses harmlessly. Older templates are removed once the new ones exist.
 */
export async function embeddedTemplates(): Promise<EmbeddedTemplates> {
  mkdirSync(CACHE, { recursive: true });
  const pglite = pgliteVersion();
  const blank = await cached(`blank-${hash(pglite)}`, async (dataDir) => {
    const { openDatabase } = await import('@feedbackd/server');
    await (await openDatabase({ dataDir }, 'operator')).close();
  });
  const migrated = await cached(`migrated-${hash(pglite, ...migrationTexts())}`, async (dataDir) => {
    cpSync(join(blank, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
    await migrate({ dataDir });
  });
  for (const entry of readdirSync(CACHE)) {
    const path = join(CACHE, entry);
    if (path !== blank && path !== migrated && !entry.startsWith('making-')) rmSync(path, { recursive: true, force: true });
  }
  return { blank, migrated };
}

/** The directory `name` of the cache, made by `make` (given an empty directory) unless a finished one is there. */
async function cached(name: string, make: (dataDir: string) => Promise<void>): Promise<string> {
  const dir = join(CACHE, name);
  if (existsSync(join(dir, 'finished'))) return dir;
  const making = mkdtempSync(join(CACHE, 'making-'));
  try {
    await make(making);
    writeFileSync(join(making, 'finished'), '');
    renameSync(making, dir);
  } catch (error) {
    rmSync(making, { recursive: true, force: true });
    // Another run finished the same template first: use its.
    if (!existsSync(join(dir, 'finished'))) throw error;
  }
  return dir;
}

function pgliteVersion(): string {
  return pglitePackage(SERVER_URL).version;
}

/** The migrations as they run: the built ones, which `npm test` rebuilds (tsc -b) before mocha starts. */
function migrationTexts(): string[] {
  const dir = join(ROOT, 'server', 'dist', 'db', 'migrations');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.js'))
    .sort()
    .map((file) => `${file}\n${readFileSync(join(dir, file), 'utf8')}`);
}

function hash(...parts: string[]): string {
  const digest = createHash('sha256');
  for (const part of parts) digest.update(part).update('\0');
  return digest.digest('hex').slice(0, 16);
}

/** A scratch directory of the run. */
export function makeRunDir(): string {
  return mkdtempSync(join(tmpdir(), 'feedback-test-run-'));
}

export function dropRunDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Creates and migrates a database on the server of `adminUrl`; returns its name. */
export async function makePostgresTemplate(adminUrl: string): Promise<string> {
  const name = `feedback_template_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`create database "${name}"`));
  await migrate({ databaseUrl: databaseUrl(adminUrl, name), dataDir: '' });
  return name;
}

export async function dropPostgresTemplate(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
}

/** The data directory of this run's migrated embedded template. */
export function embeddedTemplateDir(): string {
  return made(TEMPLATE_DATA_DIR_VARIABLE);
}

/** The data directory of this run's blank embedded template (a cluster, no migration). */
export function blankEmbeddedDir(): string {
  return made(BLANK_DATA_DIR_VARIABLE);
}

/** This run's scratch directory. */
export function runDir(): string {
  return made(RUN_DIR_VARIABLE);
}

/** The name of this run's template database on the TEST_DATABASE_URL server. */
export function postgresTemplateName(): string {
  return made(TEMPLATE_DATABASE_VARIABLE);
}

function made(variable: string): string {
  const value = process.env[variable];
  if (!value) throw new Error(`${variable} is not set: the suites run through mocha, whose .mocharc.json loads test/helpers/global-setup.ts`);
  return value;
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withClient<T>(url: string, action: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

async function migrate(location: DatabaseLocation): Promise<void> {
  // Loaded here, not at the top: helpers that only read this run's variables (browser.ts) then do not load the server.
  const { migrateUp, openDatabase, openOrm } = await import('@feedbackd/server');
  const database = await openDatabase(location, 'operator');
  try {
    const orm = await openOrm(database);
    try {
      await migrateUp(orm);
    } finally {
      await orm.close();
    }
  } finally {
    await database.close();
  }
}
