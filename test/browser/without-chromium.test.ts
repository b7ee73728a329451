import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnRun } from '../helpers/cli-process.js';
import { RUN_DIR_VARIABLE } from '../helpers/templates.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MOCHA = join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
const SUITES = ['first', 'second'].map((name) => join(ROOT, 'test', 'fixtures', 'browser-suites', `${name}.ts`));
const MISSING = '/nonexistent/chromium';

/**
 * Two browser suites run by a mocha of their own, with
 * FEEDBACK_CHROMIUM naming a file that does not exist. The run's scratch directory is one of this
 * test's (the suites need no database), so no global setup runs.
 */
describe('browser tests without Chromium', () => {
  let runDir: string;
  beforeEach(() => {
    runDir = mkdtempSync(join(tmpdir(), 'feedback-no-browser-'));
  });
  afterEach(() => rmSync(runDir, { recursive: true, force: true }));

  const runSuites = (mode: string[], extra: Record<string, string>) =>
    spawnRun(process.execPath, [MOCHA, '--no-config', '--node-option', 'import=tsx', ...mode, '--reporter', 'spec', ...SUITES], {
      FEEDBACK_CHROMIUM: MISSING,
      [RUN_DIR_VARIABLE]: runDir,
      ...extra,
    });
  // Two workers, one suite each: the line must still be printed once.
  const PARALLEL = ['--parallel', '--jobs', '2'];

  it('when Chromium is missing, then every browser test is skipped and one line, printed once for the run, says what is missing and how to install it', async () => {
    const run = await runSuites(PARALLEL, { FEEDBACK_REQUIRE_BROWSER: '' });
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.match(/0 passing/).and.match(/2 pending/);
    const notices = run.stdout.split('\n').filter((line) => line.includes('Browser tests skipped'));
    expect(notices, run.stdout).to.have.length(1);
    expect(notices[0]).to.include(MISSING).and.include('apt-get install -y chromium').and.include('FEEDBACK_CHROMIUM');
  });

  it('when Chromium is missing and FEEDBACK_REQUIRE_BROWSER is set (as CI sets it), then the browser suites fail, saying what is missing', async () => {
    const run = await runSuites([], { FEEDBACK_REQUIRE_BROWSER: '1' });
    expect(run.code, run.stdout + run.stderr).to.not.equal(0);
    expect(run.stdout).to.match(/2 failing/);
    expect(run.stdout).to.include(`Browser tests cannot run, and FEEDBACK_REQUIRE_BROWSER is set: FEEDBACK_CHROMIUM names ${MISSING}`);
    expect(run.stdout).not.to.include('Browser tests skipped');
  });
});
