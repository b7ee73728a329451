/*
 * Loaded by mocha through .mocharc.json `require`. Its mochaGlobalSetup runs once per run, in
 * mocha's own process and before any worker of a parallel run starts, so the workers inherit the
 * variables it sets; mochaGlobalTeardown runs once after the last suite.
 */
import {
  dropEmbeddedTemplate,
  dropPostgresTemplate,
  makeEmbeddedTemplate,
  makePostgresTemplate,
  TEMPLATE_DATA_DIR_VARIABLE,
  TEMPLATE_DATABASE_VARIABLE,
} from './templates.js';

// Root hooks of every file: no process a test spawned outlives it.
export { mochaHooks } from './child-processes.js';

export async function mochaGlobalSetup(): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  // Both at once: the embedded one is CPU-bound in this process, the other mostly waits on PostgreSQL.
  const [dataDir, database] = await Promise.all([makeEmbeddedTemplate(), adminUrl ? makePostgresTemplate(adminUrl) : undefined]);
  process.env[TEMPLATE_DATA_DIR_VARIABLE] = dataDir;
  if (database) process.env[TEMPLATE_DATABASE_VARIABLE] = database;
}

export async function mochaGlobalTeardown(): Promise<void> {
  const dataDir = process.env[TEMPLATE_DATA_DIR_VARIABLE];
  if (dataDir) dropEmbeddedTemplate(dataDir);
  const database = process.env[TEMPLATE_DATABASE_VARIABLE];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (database && adminUrl) await dropPostgresTemplate(adminUrl, database);
}
