import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { commandsFor } from '@feedbackd/cli/testing';
import { embeddedBackend } from '../helpers/backends.js';
import { BIN, spawnRun } from '../helpers/cli-process.js';
import { withServer } from '../helpers/test-server.js';

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

const CLI_DIR = fileURLToPath(new URL('../../cli/', import.meta.url));

/**
 * The CLI runs from a bundle (cli/scripts/bundle.js): each chunk it loads stands for the source
 * modules esbuild put in it, which its metafile lists. A loaded chunk is replaced by the URLs of
 * those modules, so that what a run loaded is named as before the bundle, module by module.
 */
function unbundled(urls: string[]): string[] {
  const meta = JSON.parse(readFileSync(join(CLI_DIR, 'dist', 'bundle', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const byUrl = new Map(Object.entries(meta.outputs).map(([output, { inputs }]) => [pathToFileURL(join(CLI_DIR, output)).href, Object.keys(inputs)]));
  return urls.flatMap((url) => {
    const inputs = byUrl.get(url);
    return inputs ? inputs.map((input) => pathToFileURL(join(CLI_DIR, input)).href) : [url];
  });
}

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
  async function modulesOf(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; modules: string[]; files: string[] }> {
    const file = join(dir, `modules-${args.join('-')}`);
    const run = await spawnRun(process.execPath, ['--import', recorder, BIN, ...args], { ...env, MODULES_FILE: file });
    const files = readFileSync(file, 'utf8').split('\n');
    return { code: run.code, stdout: run.stdout, modules: unbundled(files), files };
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

  it('when feedback --help runs, then it defines every command without loading an SDK schema (zod) or undici', async () => {
    // The commands' help shows the contract's values (statuses, sort orders, languages): they come
    // from @feedbackd/sdk/constants, which builds no schema. `board` once took two of them from the
    // contract, and --help loaded zod's 95 modules for them.
    const { code, modules } = await modulesOf(['--help']);
    expect(code).to.equal(0);
    expect(commandModules(modules)).to.include.members(ALL.map((name) => `${name}.js`));
    expect(modules.filter((url) => /\/node_modules\/(zod|undici)\/|\/sdk\/dist\/contract\/(?!constants\.js)/.test(url))).to.deep.equal([]);
  });

  it('when an API command runs, then it loads its own module and not the server package', async () => {
    // No key: the command stops before any request, after everything it needs to get there is loaded.
    const { code, modules } = await modulesOf(['list', '--json']);
    expect(code, 'no API key: a usage error').to.equal(2);
    expect(commandModules(modules)).to.deep.equal(['list.js']);
    expect(modules.filter((url) => /\/server\/dist\//.test(url))).to.deep.equal([]);
  });

  describe('against a running server', () => {
    const server = withServer(embeddedBackend);

    // What a client command has no use for: the server package and the database and web stack
    // under it, and the parts of undici the SDK's Pool does not use (fetch, WebSocket, EventSource,
    // the mock agents, the caches, the proxy agents): about 160 of the 380 modules `list` once loaded.
    const SERVER_SIDE = /\/server\/(dist|src)\/|\/node_modules\/(@mikro-orm|pg|pg-[^/]+|@electric-sql|koa|@koa|koa-[^/]+)\//;
    const UNUSED_UNDICI = /\/node_modules\/undici\/(index\.js|lib\/(web|mock|cache|interceptor)\/|lib\/dispatcher\/(agent|proxy-agent|socks5-proxy-agent|env-http-proxy-agent|retry-agent|balanced-pool|round-robin-pool)\.js)/;

    it('when feedback list runs against a server with items, then it prints them without loading the server side or the unused parts of undici', async () => {
      const titles = ['Dark mode', 'Export to CSV', 'Faster search'];
      for (const title of titles) {
        const response = await fetch(`${server.url}/api/v1/feedback`, {
          method: 'POST',
          headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ title }),
        });
        expect(response.status, await response.text()).to.equal(201);
      }
      const { code, stdout, modules } = await modulesOf(['list', '--json'], { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: server.apiKey });
      expect(code).to.equal(0);
      const listed = (JSON.parse(stdout) as { items: { title: string }[] }).items.map((item) => item.title);
      expect(listed).to.have.members(titles);
      // The recorder saw the request go through: the SDK's transport and undici's pool were loaded.
      expect(modules.some((url) => url.endsWith('/undici/lib/dispatcher/pool.js'))).to.equal(true);
      expect(modules.filter((url) => SERVER_SIDE.test(url))).to.deep.equal([]);
      expect(modules.filter((url) => UNUSED_UNDICI.test(url))).to.deep.equal([]);
    });

    it('when feedback list runs, then the CLI, the SDK, zod and commander come from the bundle, not file by file', async () => {
      const { code, modules, files } = await modulesOf(['list', '--json'], { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: server.apiKey });
      expect(code).to.equal(0);
      // The bundle held them: the list command's module and zod were loaded, as parts of chunks.
      expect(modules.some((url) => url.endsWith('/cli/dist/commands/list.js'))).to.equal(true);
      expect(modules.some((url) => /\/node_modules\/zod\//.test(url))).to.equal(true);
      const loose = files.filter((url) => /\/(cli|sdk)\/dist\/(?!bundle\/)|\/node_modules\/(zod|commander)\//.test(url));
      expect(loose).to.deep.equal([]);
      // A dozen chunks and undici's parts (about 30 files), where the modules one by one were about 180.
      expect(files.filter((url) => url.startsWith('file:')).length).to.be.below(60);
    });

    it('when feedback --version runs, then it loads nothing of the server side and no undici at all', async () => {
      const { code, stdout, modules } = await modulesOf(['--version'], { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: server.apiKey });
      expect(code).to.equal(0);
      expect(stdout.trim()).to.match(/^\d+\.\d+\.\d+/);
      expect(modules.filter((url) => SERVER_SIDE.test(url) || /\/node_modules\/undici\//.test(url))).to.deep.equal([]);
    });
  });
});
