import { expect } from 'chai';
import { embeddedBackend } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { subscribe } from '../helpers/subscriptions.js';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';

/** `feedback notifications list|retry|digest` (docs/notifications.md, docs/cli.md): --json, piped lines, exit codes. */
describe('feedback CLI: notifications (embedded)', () => {
  let server: TestServer;
  let secretKey: string;
  const run = (args: string[], options: { tty?: boolean; key?: string } = {}) => inProcess(['--url', server.url, ...args, '--api-key', options.key ?? secretKey], options);

  before(async () => {
    server = await startTestServer(embeddedBackend);
    secretKey = await server.newKey(undefined, 'secret');
  });
  after(async () => server?.close());

  it('when an item moves, then list --json shows its notifications, --state filters, and retry sends a failed one again', async () => {
    const item = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'CLI notified' } })).body.feedback.id as string;
    await subscribe(server, item, [{ externalId: 'kim', email: 'kim@example.com' }, { externalId: 'lee' }]);
    await request({ url: server.url, apiKey: secretKey }, 'PATCH', `/api/v1/feedback/${item}`, { body: { status: 'planned' } });
    const listed = await run(['notifications', 'list', '--limit', '100', '--json']);
    expect(listed.code, listed.stderr).to.equal(0);
    const mine = (JSON.parse(listed.stdout) as { items: { id: string; feedbackId: string; recipient: { externalId: string }; mailState: string; kind: string }[] }).items.filter((n) => n.feedbackId === item);
    expect(mine.map((n) => [n.recipient.externalId, n.kind, n.mailState]).sort()).to.deep.equal([
      ['kim', 'status_changed', 'pending'],
      ['lee', 'status_changed', 'skipped'],
    ]);
    const skipped = JSON.parse((await run(['notifications', 'list', '--state', 'skipped', '--json'])).stdout) as { items: { mailState: string }[] };
    expect(skipped.items.every((n) => n.mailState === 'skipped')).to.equal(true);

    const kim = mine.find((n) => n.recipient.externalId === 'kim')!;
    await server.sql(`update notifications set mail_state = 'failed', attempts = 12, last_error = 'connection refused' where id = ?`, [kim.id]);
    const piped = await run(['notifications', 'list', '--state', 'failed']);
    expect(piped.stdout).to.include(kim.id).and.include('connection refused');
    const retried = await run(['notifications', 'retry', kim.id]);
    expect(retried.stdout).to.equal('1\n');
    const [row] = await server.sql<{ mail_state: string; attempts: number }>('select mail_state, attempts from notifications where id = ?', [kim.id]);
    expect(row).to.deep.equal({ mail_state: 'pending', attempts: 0 });
  });

  it('when digest is turned on and off, then the project says so; a wrong word or state is a usage error (exit 2)', async () => {
    expect((await run(['notifications', 'digest', 'on', '--json'])).stdout).to.equal(`${JSON.stringify({ digest: true }, null, 2)}\n`);
    expect((await server.sql<{ notify_digest: boolean }>(`select notify_digest from projects where slug = 'default'`))[0]!.notify_digest).to.equal(true);
    expect((await run(['notifications', 'digest', 'off'])).stdout).to.equal('off\n');
    const wrong = await run(['notifications', 'digest', 'maybe']);
    expect(wrong.code).to.equal(2);
    expect(wrong.stderr).to.include('on or off');
    expect((await run(['notifications', 'list', '--state', 'lost'])).code).to.equal(2);
  });

  it('when a public key asks, then it is refused (exit 4 or 1) with the API message', async () => {
    const refused = await run(['notifications', 'list'], { key: server.apiKey });
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.match(/secret key/i);
  });
});
