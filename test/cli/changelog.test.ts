import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedBackend } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';

/** `feedback changelog ...` (docs/changelog.md): each subcommand, --json, piped lines, --help and exit codes. */
describe('feedback CLI: changelog (embedded)', () => {
  let server: TestServer;
  let secretKey: string;
  let bodyFile: string;
  const run = (args: string[], options: { tty?: boolean; key?: string } = {}) => inProcess(['--url', server.url, ...args, '--api-key', options.key ?? secretKey], options);
  const submit = async (title: string) => (await request(server, 'POST', '/api/v1/feedback', { body: { title } })).body.feedback.id as string;

  before(async () => {
    server = await startTestServer(embeddedBackend);
    secretKey = await server.newKey(undefined, 'secret');
    bodyFile = join(mkdtempSync(join(tmpdir(), 'changelog-')), 'notes.md');
    writeFileSync(bodyFile, '## What is new\n\nExport to **CSV**.\n');
  });
  after(async () => server?.close());

  it('when an entry is created with --link twice, --publish and --complete, then --json shows it published with both items completed, and their history records the change', async () => {
    const [a, b] = [await submit('CSV export'), await submit('XLSX export')];
    const created = await run(['changelog', 'create', '--title', 'Exports', '--body-file', bodyFile, '--link', a, '--link', b, '--publish', '--complete', '--actor', 'Ada', '--json']);
    expect(created.code, created.stderr).to.equal(0);
    const { entry } = JSON.parse(created.stdout);
    expect(entry).to.include({ title: 'Exports', body: '## What is new\n\nExport to **CSV**.\n', state: 'published' });
    expect(entry.items.map((item: { id: string; status: string }) => [item.id, item.status])).to.deep.equal([[a, 'completed'], [b, 'completed']]);
    const detail = (await request({ url: server.url, apiKey: secretKey }, 'GET', `/api/v1/feedback/${a}`)).body.feedback;
    expect(detail.statusHistory.map((h: { to: string; actor: string }) => [h.to, h.actor])).to.deep.equal([['completed', 'Ada']]);
  });

  it('when a draft is created, updated, listed, published at a time and deleted, then each step prints its line, and a public key lists only what is published', async () => {
    const created = await run(['changelog', 'create', '--title', 'Draft notes', '--body-file', bodyFile]);
    expect(created.code, created.stderr).to.equal(0);
    const [id, state] = created.stdout.trim().split('\t');
    expect(state).to.equal('draft');
    const updated = await run(['changelog', 'update', id!, '--title', 'Final notes'], { tty: true });
    expect(updated.stdout).to.include(`Updated changelog entry ${id} (draft): Final notes`);
    expect((await run(['changelog', 'list'])).stdout).to.match(new RegExp(`^${id}\\tdraft\\t\\t0\\tFinal notes$`, 'm'));
    expect((await run(['changelog', 'list'], { key: server.apiKey })).stdout).to.not.include(id);

    const scheduled = await run(['changelog', 'publish', id!, '--publish-at', '2099-01-01T00:00:00Z', '--json']);
    expect(JSON.parse(scheduled.stdout).entry).to.include({ state: 'scheduled', publishedAt: '2099-01-01T00:00:00.000Z' });
    const listed = JSON.parse((await run(['changelog', 'list', '--limit', '100', '--json'], { key: server.apiKey })).stdout);
    expect(listed.items.map((e: { id: string }) => e.id)).to.not.include(id);
    const published = await run(['changelog', 'publish', id!], { tty: true });
    // Already scheduled: publishing now moves it to now.
    expect(published.stdout).to.include(`Published changelog entry ${id}`);
    expect((await run(['changelog', 'list', '--json'], { key: server.apiKey })).stdout).to.include(id);
    expect((await run(['changelog', 'delete', id!])).stdout).to.equal(`${id}\n`);
  });

  it('when the input is wrong, then the exit code says whose fault: 2 for a missing file or bad input, 3 for an unknown entry, 4 for a public key writing', async () => {
    const missing = await run(['changelog', 'create', '--title', 'T', '--body-file', join(tmpdir(), 'no-such-file.md')]);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.include('cannot read the body file');
    const badLink = await run(['changelog', 'create', '--title', 'T', '--body-file', bodyFile, '--link', '00000000-0000-4000-8000-000000000000']);
    expect(badLink.code).to.equal(2);
    expect(badLink.stderr).to.include('No feedback item 00000000-0000-4000-8000-000000000000 in this project');
    const unknown = await run(['changelog', 'delete', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).to.equal(3);
    expect(unknown.stderr).to.include('Changelog entry not found');
    const publicKey = await run(['changelog', 'create', '--title', 'T', '--body-file', bodyFile], { key: server.apiKey });
    expect(publicKey.code).to.equal(4);
  });

  it('when --help is asked of changelog create, then it names every flag', async () => {
    const help = await inProcess(['changelog', 'create', '--help']);
    expect(help.code).to.equal(0);
    for (const flag of ['--title', '--body-file', '--link', '--publish', '--publish-at', '--complete', '--json']) expect(help.stdout).to.include(flag);
  });
});
