import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseLocation } from '@feedbackd/server';

/*
 * Migrating a new database takes seconds (PGlite: 5 to 9 s on a 2-core machine), and most suites
 * only need one that is migrated and empty. So a run migrates one template of each backend, and a
 * suite gets a copy: the embedded data directory copied (under a second to copy and open), a
 * PostgreSQL database created from the template database. A template holds the schema and
 * nothing else: no project and no key, so a server started on a copy still creates the default
 * project and mints the first key, as on a fresh database.
 *
 * global-setup.ts makes them once per mocha run (once for all workers of a parallel run) and
 * passes them on to the suites in these variables.
 */
export const TEMPLATE_DATA_DIR_VARIABLE = 'FEEDBACK_TEST_TEMPLATE_DATA_DIR';
export const TEMPLATE_DATABASE_VARIABLE = 'FEEDBACK_TEST_TEMPLATE_DATABASE';

/** Creates and migrates an embedded database; returns its data directory. */
export async function makeEmbeddedTemplate(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'feedback-template-'));
  await migrate({ dataDir });
  return dataDir;
}

/** Creates and migrates a database on the server of `adminUrl`; returns its name. */
export async function makePostgresTemplate(adminUrl: string): Promise<string> {
  const name = `feedback_template_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`create database "${name}"`));
  await migrate({ databaseUrl: databaseUrl(adminUrl, name), dataDir: '' });
  return name;
}

export function dropEmbeddedTemplate(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
}

export async function dropPostgresTemplate(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
}

/** The data directory of this run's embedded template. */
export function embeddedTemplateDir(): string {
  return made(TEMPLATE_DATA_DIR_VARIABLE);
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
