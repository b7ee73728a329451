import { expect } from 'chai';
import { embeddedBackend } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** `feedback webhooks ...`: each subcommand, its output for scripts, people and --json, and its exit codes. */
describe('feedback CLI: webhooks (embedded)', () => {
  let server: TestServer;
  let secretKey: string;
  // The server's address before the command: `webhooks create --url` is the endpoint's.
  const run = (args: string[], options: { tty?: boolean; key?: string } = {}) => inProcess(['--url', server.url, ...args, '--api-key', options.key ?? secretKey], options);

  before(async () => {
    server = await startTestServer(embeddedBackend, { webhooksAllowPrivate: true });
    secretKey = await server.newKey(undefined, 'secret');
  });
  after(async () => server?.close());

  it('when an endpoint is created with --json, then the object holds its id and, once, its secret; list, disable, enable, rotate-secret and delete then act on it', async () => {
    const created = await run(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hooks', '--events', 'feedback.created,vote.added', '--json']);
    expect(created.code, created.stderr).to.equal(0);
    const { webhook, secret } = JSON.parse(created.stdout);
    expect(secret).to.match(/^whsec_/);
    expect(webhook).to.include({ url: 'http://127.0.0.1:9/hooks', enabled: true });
    expect(webhook.events).to.deep.equal(['feedback.created', 'vote.added']);

    const listed = await run(['webhooks', 'list']);
    expect(listed.stdout).to.equal(`${webhook.id}\tenabled\tfeedback.created,vote.added\thttp://127.0.0.1:9/hooks\n`);
    expect((await run(['webhooks', 'disable', webhook.id])).stdout).to.equal(`${webhook.id}\tdisabled\tfeedback.created,vote.added\thttp://127.0.0.1:9/hooks\n`);
    const enabled = await run(['webhooks', 'enable', webhook.id], { tty: true });
    expect(enabled.stdout).to.include(`Enabled webhook ${webhook.id}:`);
    expect((await run(['webhooks', 'update', webhook.id, '--all-events', '--json'])).stdout).to.include('"events": null');

    const rotated = await run(['webhooks', 'rotate-secret', webhook.id, '--grace', '60']);
    const [id, fresh] = rotated.stdout.trim().split('\t');
    expect(id).to.equal(webhook.id);
    expect(fresh).to.match(/^whsec_/).and.not.equal(secret);

    expect((await run(['webhooks', 'delete', webhook.id])).stdout).to.equal(`${webhook.id}\n`);
    expect((await run(['webhooks', 'list', '--json'])).stdout).to.include('"items": []');
  });

  it('when the input is wrong, then the exit code says whose fault: 2 for a bad flag, 3 for an unknown endpoint, 4 for a public key', async () => {
    const badEvents = await run(['webhooks', 'create', '--url', 'http://127.0.0.1:9/x', '--events', 'nothing.happened']);
    expect(badEvents.code).to.equal(2);
    expect(badEvents.stderr).to.include('--events takes one or more of feedback.created');
    const unknown = await run(['webhooks', 'delete', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).to.equal(3);
    expect(unknown.stderr).to.include('Webhook not found');
    const publicKey = await run(['webhooks', 'list'], { key: server.apiKey });
    expect(publicKey.code).to.equal(4);
  });
});
