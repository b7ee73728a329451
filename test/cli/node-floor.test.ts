import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, spawnRun, type Run } from '../helpers/cli-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MANIFESTS = ['package.json', 'sdk/package.json', 'server/package.json', 'cli/package.json'];
const manifest = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as { version: string; engines: { node: string } };
const FLOOR = '22.19';
const HOW = 'in a checkout of feedback, `eval "$(scripts/supported-node)"` puts one on the PATH; see "Supported runtimes" in docs/operations.md';

// The seam: a module preloaded with --import that makes the running Node report another version,
// before the launcher's first line runs. The launcher itself reads nothing but process.versions.
const PRELOAD = `
const fake = process.env.FAKE_NODE_VERSION;
Object.defineProperty(process.versions, 'node', { value: fake });
Object.defineProperty(process, 'version', { value: 'v' + fake });
`;

/**
 * Asserts the refusal of the launcher: one whole line on stderr, newline included (or the shell's
 * prompt follows it on the same line), naming the floor, `running` and the script that gets a
 * supported Node; nothing else; exit 1.
 */
function expectRefused(run: Run, running: string): void {
  expect(run.stdout, 'stdout').to.equal('');
  expect(run.stderr, 'stderr').to.equal(`feedback: Node ${FLOOR} or newer is needed (this is Node ${running}); ${HOW}\n`);
  expect(run.stderr, 'stderr').to.include('eval "$(scripts/supported-node)"');
  expect(run.code, 'exit code').to.equal(1);
}

/** Every `node` on the PATH (and the system's) older than the floor, with its version. */
function oldNodes(): Array<{ path: string; version: string }> {
  const candidates = new Set([...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'node')), '/usr/bin/node', '/usr/local/bin/node']);
  const found: Array<{ path: string; version: string }> = [];
  for (const path of candidates) {
    let version: string;
    try {
      version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      continue; // not there, or not runnable
    }
    const [major = 0, minor = 0] = version.split('.').map(Number);
    const [floorMajor = 0, floorMinor = 0] = FLOOR.split('.').map(Number);
    if (major < floorMajor || (major === floorMajor && minor < floorMinor)) found.push({ path, version });
  }
  return found;
}

describe('the Node floor', () => {
  let dir: string;
  let preload: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'feedback-node-floor-'));
    preload = join(dir, 'fake-node-version.mjs');
    writeFileSync(preload, PRELOAD);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the launcher on this Node made to report `version`. */
  const launcherAs = (version: string, args: string[]) =>
    spawnRun(process.execPath, ['--import', preload, BIN, ...args], { FAKE_NODE_VERSION: version });

  it('when the packages declare the Node they need, then every package.json says ">=22.19"', () => {
    for (const path of MANIFESTS) expect(manifest(path).engines.node, path).to.equal(`>=${FLOOR}`);
  });

  it('when the launcher runs on Node 20, then it says in one line on stderr which Node it needs and exits 1, whatever the command', async () => {
    expectRefused(await launcherAs('20.20.2', ['--version']), '20.20.2');
    // A command that would load the server and the embedded database is refused before loading anything.
    expectRefused(await launcherAs('20.20.2', ['serve', '--data-dir', join(dir, 'data')]), '20.20.2');
    expectRefused(await launcherAs('18.20.8', ['list', '--json']), '18.20.8');
  });

  it('when the Node is just below or at the floor, then 22.18 is refused and 22.19 runs', async () => {
    expectRefused(await launcherAs('22.18.0', ['--version']), '22.18.0');
    const atFloor = await launcherAs('22.19.0', ['--version']);
    expect(atFloor.stderr).to.equal('');
    expect(atFloor.stdout.trim()).to.equal(manifest('cli/package.json').version);
    expect(atFloor.code).to.equal(0);
  });

  it('when the launcher runs on this Node, then it runs the CLI as usual', async () => {
    const run = await spawnRun(process.execPath, [BIN, '--version']);
    expect(run.stderr).to.equal('');
    expect(run.stdout.trim()).to.equal(manifest('cli/package.json').version);
    expect(run.code).to.equal(0);
  });

  for (const name of ['@feedbackd/server', '@feedbackd/sdk']) {
    it(`when an application imports ${name} on Node 20, then the import fails with one message naming the Node it needs`, async () => {
      // The application catches the error to show what it gets: the message and a code to tell it apart.
      const app = `import('${name}').then(() => console.log('loaded'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })))`;
      const run = await spawnRun(process.execPath, ['--import', preload, '--input-type=module', '-e', app], { FAKE_NODE_VERSION: '20.20.2' });
      expect(run.stderr).to.equal('');
      expect(JSON.parse(run.stdout)).to.deep.equal({
        code: 'ERR_FEEDBACK_UNSUPPORTED_NODE',
        message: `${name}: Node ${FLOOR} or newer is needed (this is Node 20.20.2); ${HOW}`,
      });
    });
  }

  it('when a real Node older than the floor is installed, then the launcher, the server and the SDK refuse it the same way', async function () {
    const old = oldNodes();
    if (old.length === 0) this.skip();
    for (const { path, version } of old) {
      expectRefused(await spawnRun(path, [BIN, '--version']), version);
      // Before Node 18 the server's modules (ES2023) do not even parse, so Node fails before the guard runs.
      if (Number(version.split('.')[0]) < 18) continue;
      const server = await spawnRun(path, ['--input-type=module', '-e', "import '@feedbackd/server';"]);
      expect(server.code, `${path}: exit code`).to.equal(1);
      expect(server.stdout).to.equal('');
      expect(server.stderr).to.include(`Error: @feedbackd/server: Node ${FLOOR} or newer is needed (this is Node ${version}); ${HOW}`);
      const sdk = await spawnRun(path, ['--input-type=module', '-e', "import '@feedbackd/sdk';"]);
      expect(sdk.code, `${path}: exit code of the SDK's import`).to.equal(1);
      expect(sdk.stderr).to.include(`Error: @feedbackd/sdk: Node ${FLOOR} or newer is needed (this is Node ${version}); ${HOW}`);
    }
  });
});
