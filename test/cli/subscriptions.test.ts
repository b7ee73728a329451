import { expect } from 'chai';
import { embeddedBackend } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';

/** `feedback subscribe`, `unsubscribe` and `subscribers` (docs/notifications.md): --json, piped lines, a terminal's sentences, exit codes. */
describe('feedback CLI: subscriptions (embedded)', () => {
  let server: TestServer;
  let secretKey: string;
  const run = (args: string[], options: { tty?: boolean; key?: string } = {}) => inProcess(['--url', server.url, ...args, '--api-key', options.key ?? secretKey], options);
  const submit = async (title: string, externalId?: string) =>
    (await request(server, 'POST', '/api/v1/feedback', { body: { title, ...(externalId ? { endUser: { externalId } } : {}) } })).body.feedback.id as string;

  before(async () => {
    server = await startTestServer(embeddedBackend);
    secretKey = await server.newKey(undefined, 'secret');
  });
  after(async () => server?.close());

  it('when a user is subscribed and then unsubscribed from an item and the project, then each step prints its answer, and subscribers lists who is told', async () => {
    const id = await submit('Calendar sync', 'cli-author');
    const subscribed = await run(['subscribe', id, '--user', 'cli-watcher', '--json'], { key: server.apiKey });
    expect(subscribed.code, subscribed.stderr).to.equal(0);
    expect(JSON.parse(subscribed.stdout)).to.deep.equal({ subscribed: true });

    const listed = JSON.parse((await run(['subscribers', id, '--json'])).stdout);
    expect(listed).to.include({ total: 2, page: 1 });
    expect(listed.items.map((s: { externalId: string; reasons: string[] }) => [s.externalId, s.reasons])).to.deep.equal([
      ['cli-author', ['submitted', 'voted']],
      ['cli-watcher', ['chose']],
    ]);
    expect((await run(['subscribers', id])).stdout).to.match(/^cli-watcher\t\tchose\t/m);
    expect((await run(['subscribers', id], { tty: true })).stdout).to.include('REASONS');

    const off = await run(['unsubscribe', id, '--user', 'cli-watcher'], { key: server.apiKey, tty: true });
    expect(off.code, off.stderr).to.equal(0);
    expect(off.stdout).to.include(`cli-watcher is unsubscribed from ${id}.`);
    const all = await run(['unsubscribe', '--user', 'cli-author'], { key: server.apiKey });
    expect(all.stdout).to.equal('unsubscribed\n');
    expect((await run(['subscribers', id], { tty: true })).stdout).to.include(`No one is subscribed to ${id}.`);
  });

  it('when the input is wrong, then the exit code says whose fault: 2 without --user, 3 for an unknown item or user, 4 for a public key listing', async () => {
    const id = await submit('Exit codes');
    const noUser = await run(['subscribe', id], { key: server.apiKey });
    expect(noUser.code).to.equal(2);
    expect(noUser.stderr).to.include('--user');
    const unknownItem = await run(['subscribe', '00000000-0000-4000-8000-000000000000', '--user', 'x'], { key: server.apiKey });
    expect(unknownItem.code).to.equal(3);
    const unknownUser = await run(['unsubscribe', '--user', 'never-seen-here'], { key: server.apiKey });
    expect(unknownUser.code).to.equal(3);
    expect(unknownUser.stderr).to.include('End user not found');
    const publicKey = await run(['subscribers', id], { key: server.apiKey });
    expect(publicKey.code).to.equal(4);
    expect(publicKey.stderr).to.include('secret key');
  });
});
