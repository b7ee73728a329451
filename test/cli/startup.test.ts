import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandsFor } from '../../cli/src/index.js';
import { BIN, spawnRun } from '../helpers/cli-process.js';

/**
 * What the CLI loads before it answers: the module of the command run and no other, so that its
 * start does not grow with every command added (`npm run bench:cli` times it).
 */

// Preloaded with --import: writes the URL of every module loaded, one a line, to MODULES_FILE at exit.
const RECORDER = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on('exit', () => writeFileSync(process.env.MODULES_FILE, loaded.join('\\n')));
`;

const ALL = commandsFor(['node', 'feedback', '--help']);

describe('what the CLI loads', () => {
  let dir: string;
  let recorder: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'feedback-startup-'));
    recorder = join(dir, 'recorder.mjs');
    writeFileSync(recorder, RECORDER);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The modules a run of `feedback ...args` loaded, as paths under the repository (or node: builtins). */
  async function modulesOf(args: string[]): Promise<{ code: number | null; modules: string[] }> {
    const file = join(dir, `modules-${args.join('-')}`);
    const run = await spawnRun(process.execPath, ['--import', recorder, BIN, ...args], { MODULES_FILE: file });
    return { code: run.code, modules: readFileSync(file, 'utf8').split('\n') };
  }

  const commandModules = (modules: string[]) => modules.filter((url) => /\/cli\/dist\/commands\//.test(url)).map((url) => url.replace(/.*\/commands\//, ''));

  it('when the command line names a command, then only that one is defined; --version alone defines none; anything else every one', () => {
    const argv = (...args: string[]) => ['node', 'feedback', ...args];
    expect(commandsFor(argv('list', '--json'))).to.deep.equal(['list']);
    expect(commandsFor(argv('--json', 'list'))).to.deep.equal(['list']);
    // A program option's value is not a command name, whether it is called like one or not.
    expect(commandsFor(argv('--url', 'list', 'show', '1'))).to.deep.equal(['show']);
    expect(commandsFor(argv('--api-key', 'pk_x', '--retries', '0', 'webhooks', 'list'))).to.deep.equal(['webhooks']);
    expect(commandsFor(argv('--url=http://x', 'vote', '1'))).to.deep.equal(['vote']);
    expect(commandsFor(argv('--version'))).to.deep.equal([]);
    expect(commandsFor(argv('-V'))).to.deep.equal([]);
    for (const args of [[], ['--help'], ['--version', '--help'], ['help', 'list'], ['lst'], ['--', 'list']]) {
      expect(commandsFor(argv(...args)), args.join(' ')).to.deep.equal(ALL);
    }
    expect(ALL).to.include.members(['serve', 'list', 'webhooks', 'open']);
  });

  it('when feedback --version runs, then it loads no command, no SDK schema (zod) and nothing of the server', async () => {
    const { code, modules } = await modulesOf(['--version']);
    expect(code).to.equal(0);
    expect(commandModules(modules)).to.deep.equal([]);
    expect(modules.filter((url) => /\/zod\/|\/server\/dist\//.test(url))).to.deep.equal([]);
  });

  it('when an API command runs, then it loads its own module and not the server package', async () => {
    // No key: the command stops before any request, after everything it needs to get there is loaded.
    const { code, modules } = await modulesOf(['list', '--json']);
    expect(code, 'no API key: a usage error').to.equal(2);
    expect(commandModules(modules)).to.deep.equal(['list.js']);
    expect(modules.filter((url) => /\/server\/dist\//.test(url))).to.deep.equal([]);
  });
});
