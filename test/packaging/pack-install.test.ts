import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnRun, type Run } from '../helpers/cli-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = ['sdk', 'server', 'cli'] as const;
/** The one version lerna keeps every package on (lerna.json), which --version and the SDK report. */
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'lerna.json'), 'utf8')) as { version: string }).version;
/** TypeScript's own `tsc` (its package exports no bin subpath, so it is found beside its package.json). */
const TSC = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');

/** Runs npm with the output captured; a failure fails the test with npm's own words. */
function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
}

/**
 * The issue this answers: the packages only worked inside the monorepo. Here each one is packed as
 * `npm publish` would pack it, installed into an empty directory next to nothing else, and used as a
 * stranger would: the CLI's serve, keys and list, and the SDK from ESM and CommonJS with its types.
 */
describe('packed tarballs install into an empty directory and work', function () {
  this.timeout(300_000);
  let work: string;
  let app: string;
  const tarballs: Record<string, string> = {};

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'feedback-pack-'));
    const packs = join(work, 'packs');
    mkdirSync(packs);
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', packs, ...PACKAGES.flatMap((p) => ['-w', p])], ROOT)) as { name: string; filename: string; files: { path: string }[] }[];
    for (const entry of packed) tarballs[entry.name] = join(packs, entry.filename);
    app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
    // --prefer-offline: the registry's packages come from npm's cache when `npm ci` filled it.
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', ...PACKAGES.map((p) => tarballs[`@feedbackd/${p}`]!)], app);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('when each package is packed, then its tarball has README, LICENSE, license, types, and no file that points at a missing one', () => {
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    for (const pkg of PACKAGES) {
      const name = `@feedbackd/${pkg}`;
      const files = execFileSync('tar', ['tzf', tarballs[name]!], { encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
      expect(files, name).to.include.members(['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/index.d.ts']);
      expect(files.filter((f) => f.includes('tsbuildinfo')), name).to.deep.equal([]);
      const installed = join(app, 'node_modules', name);
      expect(readFileSync(join(installed, 'LICENSE'), 'utf8'), `${name} LICENSE`).to.equal(license);
      const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { license?: string; version: string };
      expect(manifest.license, name).to.equal('MIT');
      expect(manifest.version, name).to.equal(VERSION);
      // Every source map and declaration map names sources that the tarball holds.
      const present = new Set(files);
      for (const map of files.filter((f) => f.endsWith('.map'))) {
        const { sources } = JSON.parse(readFileSync(join(installed, map), 'utf8')) as { sources: string[] };
        for (const source of sources) expect(present.has(normalize(join(dirname(map), source))), `${name}/${map} -> ${source}`).to.equal(true);
      }
    }
  });

  it('when the installed CLI runs, then --version is the packages version, serve starts, keys and list work', async () => {
    const bin = join(app, 'node_modules', '.bin', 'feedback');
    const run = (args: string[], env: Record<string, string> = {}): Promise<Run> => spawnRun(bin, args, env);
    expect((await run(['--version'])).stdout.trim()).to.equal(VERSION);
    const dataDir = join(work, 'data');
    const missing = await run(['keys', 'list', '--data-dir', dataDir]);
    expect(missing.code, 'no database yet').to.equal(3);

    const server = await startInstalledServer(bin, dataDir);
    try {
      const keys = await run(['keys', 'list', '--json', '--data-dir', dataDir]);
      expect(keys.code, keys.stderr).to.equal(0);
      expect(JSON.parse(keys.stdout) as unknown[]).to.have.length(1);
      const env = { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: server.key };
      const submitted = await run(['submit', 'From a tarball', '--json'], env);
      expect(submitted.code, submitted.stderr).to.equal(0);
      const listed = await run(['list', '--json'], env);
      expect((JSON.parse(listed.stdout) as { items: { title: string }[] }).items.map((item) => item.title)).to.deep.equal(['From a tarball']);

      // The SDK, as an application would load it: ESM and CommonJS, against the running server.
      const script = (load: string) =>
        `${load}\nconst client = new FeedbackClient({ baseUrl: process.env.FEEDBACK_URL, apiKey: process.env.FEEDBACK_API_KEY });\n` +
        `client.feedback.list({}).then((page) => { console.log(JSON.stringify({ total: page.total, version: SDK_VERSION })); return client.close(); });\n`;
      writeFileSync(join(app, 'esm.mjs'), script(`import { FeedbackClient, SDK_VERSION } from '@feedbackd/sdk';`));
      writeFileSync(join(app, 'cjs.cjs'), script(`const { FeedbackClient, SDK_VERSION } = require('@feedbackd/sdk');`));
      for (const file of ['esm.mjs', 'cjs.cjs']) {
        const result = await spawnRun(process.execPath, [join(app, file)], env);
        expect(result.code, `${file}: ${result.stderr}`).to.equal(0);
        expect(JSON.parse(result.stdout), file).to.deep.equal({ total: 1, version: VERSION });
      }
    } finally {
      await server.stop();
    }
  });

  it('when TypeScript compiles an ESM and a CommonJS consumer, then the types resolve, and a wrong field is an error', () => {
    const consumer = (load: string, field: string) =>
      `${load}\nconst client = new FeedbackClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'pk_x' });\n` +
      `export async function first(): Promise<string | undefined> {\n  const page = await client.feedback.list({ sortBy: 'votes' });\n  await client.feedback.create({ ${field}: 'x' });\n  return page.items[0]?.title;\n}\n`;
    writeFileSync(join(app, 'consumer.mts'), consumer(`import { FeedbackClient } from '@feedbackd/sdk';`, 'title'));
    writeFileSync(join(app, 'consumer.cts'), consumer(`import sdk = require('@feedbackd/sdk');\nconst { FeedbackClient } = sdk;`, 'title'));
    writeFileSync(join(app, 'wrong.mts'), consumer(`import { FeedbackClient } from '@feedbackd/sdk';`, 'titel'));
    const tsc = (files: string[]) =>
      spawnRun(process.execPath, [TSC, '--ignoreConfig', '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2023', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules', '@types'), ...files]);
    return (async () => {
      const good = await tsc([join(app, 'consumer.mts'), join(app, 'consumer.cts')]);
      expect(good.code, good.stdout + good.stderr).to.equal(0);
      const wrong = await tsc([join(app, 'wrong.mts')]);
      expect(wrong.code).not.to.equal(0);
      expect(wrong.stdout).to.include("'titel' does not exist");
    })();
  });
});

/** `feedback serve` from the install, until it prints its ready line and the first key. */
function startInstalledServer(bin: string, dataDir: string): Promise<{ url: string; key: string; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['serve', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('close', done));
    const check = () => {
      const url = /is ready at (http:\/\/\S+)/.exec(stderr)?.[1];
      const key = /(pk_[0-9A-Za-z]+)/.exec(stdout)?.[1];
      if (url && key) {
        resolve({
          url,
          key,
          stop: async () => {
            child.kill('SIGTERM');
            expect(await exited).to.equal(0);
          },
        });
      }
    };
    child.stdout.on('data', (chunk) => ((stdout += chunk), check()));
    child.stderr.on('data', (chunk) => ((stderr += chunk), check()));
    void exited.then((code) => reject(new Error(`serve exited with ${code} before it was ready:\n${stderr}`)));
  });
}
