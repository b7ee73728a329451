/**
 * `npm test` (`quick`) and `npm run test:full` (`full`): which test files run, on which databases
 * (test/helpers/suites.ts lists the heavy files; docs/testing.md says what each command runs).
 *
 * - quick: the type check, then every file not in FULL_ONLY on the embedded database only
 *   (TEST_DATABASE_URL and TEST_REDIS_URL are ignored), Chromium used when present.
 * - full: the FULL_ONLY files on every backend the variables give; with TEST_DATABASE_URL, the
 *   PostgreSQL (and Redis) variants of the quick files too; then the packaging test, alone.
 *
 * Every part runs even when one before it failed (a failure only says where to look), and the
 * command fails when any part did. Each part prints how long it took.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FULL_ONLY, PACK_INSTALL, quickFiles, quickFilesOnEveryBackend } from '../test/helpers/suites.js';
import { ONLY_BACKENDS_VARIABLE } from '../test/helpers/backends.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const MOCHA = require.resolve('mocha/bin/mocha.js');
// TypeScript's package exports no bin subpath: its launcher is found in the root's node_modules.
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

type Env = Record<string, string | undefined>;

function run(args: string[], env: Env = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(1));
  });
}

const failed: string[] = [];
async function part(name: string, work: () => Promise<number>): Promise<void> {
  const started = performance.now();
  console.log(`--- ${name}`);
  const code = await work();
  if (code !== 0) failed.push(name);
  console.log(`--- ${name}: ${code === 0 ? 'passed' : 'FAILED'} in ${Math.round((performance.now() - started) / 1000)} s`);
}

const mocha = (files: readonly string[], env?: Env) => run([MOCHA, ...files], env);

const which = process.argv[2];
if (which === 'quick') {
  const embeddedOnly: Env = { ...process.env, TEST_DATABASE_URL: undefined, TEST_REDIS_URL: undefined };
  await part('type check', async () => ((await run([TSC, '-b'])) || (await run([TSC, '-p', 'test/tsconfig.json']))));
  await part('the quick suite (embedded database)', () => mocha(quickFiles(), embeddedOnly));
} else if (which === 'full') {
  await part('the heavy suites (every backend given)', () => mocha(FULL_ONLY.filter((file) => file !== PACK_INSTALL)));
  if (process.env.TEST_DATABASE_URL) {
    await part("the quick suites' PostgreSQL variants", () => mocha(quickFilesOnEveryBackend(), { ...process.env, [ONLY_BACKENDS_VARIABLE]: 'postgres' }));
  } else {
    console.log("--- the quick suites' PostgreSQL variants: skipped, TEST_DATABASE_URL is not set (docs/testing.md)");
  }
  await part('the packaging test', () => mocha([PACK_INSTALL]));
} else {
  console.error('usage: node --import tsx scripts/test-suite.ts quick|full');
  process.exit(2);
}
if (failed.length > 0) console.log(`--- failed: ${failed.join('; ')}`);
process.exitCode = failed.length > 0 ? 1 : 0;
