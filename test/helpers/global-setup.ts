/*
 * Loaded by mocha through .mocharc.json `require`. Its mochaGlobalSetup runs once per run, in
 * mocha's own process and before any worker of a parallel run starts, so the workers inherit the
 * variables it sets; mochaGlobalTeardown runs once after the last suite.
 */
import {
  BLANK_DATA_DIR_VARIABLE,
  dropPostgresTemplate,
  dropRunDir,
  embeddedTemplates,
  makePostgresTemplate,
  makeRunDir,
  RUN_DIR_VARIABLE,
  TEMPLATE_DATA_DIR_VARIABLE,
  TEMPLATE_DATABASE_VARIABLE,
} from './templates.js';

import { mochaHooks as processHooks } from './child-processes.js';
import { fileTimeHooks } from './file-times.js';

// Root hooks of every file: no process a test spawned outlives it; each file's time is noted on request.
export const mochaHooks = {
  beforeEach: processHooks.beforeEach,
  afterEach: processHooks.afterEach,
  beforeAll: fileTimeHooks.beforeAll,
  afterAll: [fileTimeHooks.afterAll, processHooks.afterAll],
};

export async function mochaGlobalSetup(): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  // Both at once: the embedded ones are CPU-bound in this process (when not cached), the other mostly waits on PostgreSQL.
  const [embedded, database] = await Promise.all([embeddedTemplates(), adminUrl ? makePostgresTemplate(adminUrl) : undefined]);
  process.env[TEMPLATE_DATA_DIR_VARIABLE] = embedded.migrated;
  process.env[BLANK_DATA_DIR_VARIABLE] = embedded.blank;
  process.env[RUN_DIR_VARIABLE] = makeRunDir();
  if (database) process.env[TEMPLATE_DATABASE_VARIABLE] = database;
}

export async function mochaGlobalTeardown(): Promise<void> {
  const dir = process.env[RUN_DIR_VARIABLE];
  if (dir) dropRunDir(dir);
  const database = process.env[TEMPLATE_DATABASE_VARIABLE];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (database && adminUrl) await dropPostgresTemplate(adminUrl, database);
}
