import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Webhook } from 'standardwebhooks';
import { FeedbackClient } from '@feedbackd/sdk';
import type { Webhook as WebhookObject } from '@feedbackd/sdk/contract';
import { embeddedBackend } from '../helpers/backends.js';
import { BIN, cleanEnv, inProcess } from '../helpers/cli-process.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { signatureHeaders, startHangingReceiver, startReceiver, until } from '../helpers/webhook-receiver.js';
import { settlesBefore } from '../helpers/until.js';

/** A `feedback webhooks listen` process of a test, with what it printed so far. */
interface Listening {
  child: ChildProcess;
  stdoutLines(): string[];
  stderr(): string;
  exited: Promise<number | null>;
}

function startListen(args: string[], env: Record<string, string>): Listening {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'close').then(([code]) => code as number | null);
  return { child, stdoutLines: () => stdout.split('\n').filter((line) => line !== ''), stderr: () => stderr, exited };
}

/**
 * `feedback webhooks listen --forward-to URL`: a receiver on this machine gets the project's
 * events, signed, though the server (which allows no private targets here) never connects to it.
 */
describe('feedback CLI: webhooks listen (embedded)', () => {
  let server: TestServer;
  let secretKey: string;
  let client: FeedbackClient;
  let publicClient: FeedbackClient;

  before(async () => {
    server = await startTestServer(embeddedBackend);
    secretKey = await server.newKey(undefined, 'secret');
    client = new FeedbackClient({ baseUrl: server.url, apiKey: secretKey, maxRetries: 0 });
    publicClient = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
  });
  // A test that failed may leave its listener's endpoint (its process killed, not stopped): the
  // next tests, which look at the project's endpoints, start without it.
  afterEach(async () => {
    for (const endpoint of await client.webhooks.list()) await client.webhooks.delete(endpoint.id);
  });
  after(async () => {
    await client?.close();
    await publicClient?.close();
    await server?.close();
  });

  it('when a vote is made while it listens with --json, then the receiver verifies each forwarded delivery with the printed secret; SIGTERM ends it with 0 and its endpoint is gone', async () => {
    const receiver = await startReceiver();
    const listening = startListen(['--url', server.url, 'webhooks', 'listen', '--forward-to', receiver.url, '--json'], { FEEDBACK_API_KEY: secretKey });
    try {
      await until(() => listening.stdoutLines().length >= 1, 20_000, 'the first line: the endpoint and its secret');
      // stderr is a pipe of its own: its line may come after stdout's.
      await until(() => listening.stderr().includes('Ctrl-C to stop.'), 20_000, 'the line on stderr');
      const { webhook, secret } = JSON.parse(listening.stdoutLines()[0]!) as { webhook: WebhookObject; secret: string };
      expect(webhook).to.include({ mode: 'pull', url: receiver.url, enabled: true });
      expect(listening.stderr()).to.include(`Forwarding every event to ${receiver.url}; signing secret ${secret} (use it in your receiver). Ctrl-C to stop.`);

      const item = await publicClient.feedback.create({ title: 'Heard locally' });
      await publicClient.votes.toggle(item.id, { endUser: { externalId: 'ada' } });
      await until(() => receiver.received.length >= 2, 15_000, 'both deliveries at the receiver');
      const verifier = new Webhook(secret);
      const events = receiver.received.map((delivery) => verifier.verify(delivery.body, signatureHeaders(delivery.headers)) as { type: string; data: unknown });
      expect(events.map((event) => event.type).sort()).to.deep.equal(['feedback.created', 'vote.added']);
      expect(events.find((event) => event.type === 'vote.added')!.data).to.deep.equal({ feedback: { id: item.id, voteCount: 2 }, endUser: { externalId: 'ada' } });

      // One JSON line per delivery, and each outcome recorded by the server as a success.
      await until(() => listening.stdoutLines().length >= 3, 5_000, 'a line per delivery');
      const lines = listening.stdoutLines().slice(1).map((line) => JSON.parse(line) as { eventType: string; webhookId: string; statusCode: number });
      expect(lines.map((line) => [line.eventType, line.statusCode]).sort()).to.deep.equal([['feedback.created', 200], ['vote.added', 200]]);
      expect(lines.map((line) => line.webhookId).sort()).to.deep.equal(receiver.received.map((delivery) => String(delivery.headers['webhook-id'])).sort());
      await until(async () => (await client.webhooks.deliveries(webhook.id)).every((delivery) => delivery.state === 'succeeded'), 5_000, 'the outcomes recorded');

      listening.child.kill('SIGTERM');
      expect(await listening.exited, listening.stderr()).to.equal(0);
      expect((await client.webhooks.list()).map((endpoint) => endpoint.id)).not.to.include(webhook.id);
    } finally {
      if (listening.child.exitCode === null) listening.child.kill('SIGKILL');
      await receiver.close();
    }
  });

  it('when its receiver answers 500, then the line says so and the server schedules the retry as for a sent delivery', async () => {
    const receiver = await startReceiver([500]);
    const listening = startListen(['--url', server.url, 'webhooks', 'listen', '--forward-to', receiver.url, '--events', 'feedback.created'], { FEEDBACK_API_KEY: secretKey });
    try {
      await until(() => listening.stderr().includes('Ctrl-C to stop.'), 20_000, 'the listener to start');
      await publicClient.feedback.create({ title: 'Not now' });
      await until(() => listening.stdoutLines().length >= 1, 15_000, 'the line of the forward');
      expect(listening.stdoutLines()[0]).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} {2}feedback\.created {2}msg_[0-9a-f-]{36} {2}→ 500 \(\d+ ms\)$/);
      const [listener] = (await client.webhooks.list()).filter((endpoint) => endpoint.mode === 'pull' && endpoint.url === receiver.url);
      await until(async () => (await client.webhooks.deliveries(listener!.id))[0]?.attemptLog.length === 1, 5_000, 'the outcome recorded');
      const [delivery] = await client.webhooks.deliveries(listener!.id);
      expect(delivery).to.include({ state: 'pending', attempts: 1, lastStatus: 500 });
      expect(delivery!.attemptLog[0]).to.include({ statusCode: 500, response: 'not now' });
      listening.child.kill('SIGINT');
      expect(await listening.exited, listening.stderr()).to.equal(0);
    } finally {
      if (listening.child.exitCode === null) listening.child.kill('SIGKILL');
      await receiver.close();
    }
  });

  it('when SIGTERM comes while its receiver holds a forward open, then it waits a few seconds at most, deletes its endpoint and exits 0', async () => {
    const hanging = await startHangingReceiver();
    const listening = startListen(['--url', server.url, 'webhooks', 'listen', '--forward-to', hanging.url, '--events', 'feedback.created'], { FEEDBACK_API_KEY: secretKey });
    try {
      await until(() => listening.stderr().includes('Ctrl-C to stop.'), 20_000, 'the listener to start');
      await publicClient.feedback.create({ title: 'Held open' });
      await until(() => hanging.held() >= 1, 15_000, 'the forward to reach the receiver');
      const started = performance.now();
      listening.child.kill('SIGTERM');
      // Bounded by the stop's grace (5 s), not the forward's 15 s: the exit comes before a timer of
      // 12 s from the signal (an order), and no sooner than most of the grace (a lower bound, which a
      // busy machine only lengthens).
      expect(await settlesBefore(12_000, listening.exited), 'exited before the forward\'s 15 s were over').to.equal(true);
      expect(await listening.exited, listening.stderr()).to.equal(0);
      expect(performance.now() - started, 'waited for the forward, up to the grace').to.be.at.least(4_000);
      expect((await client.webhooks.list()).filter((endpoint) => endpoint.mode === 'pull')).to.deep.equal([]);
    } finally {
      if (listening.child.exitCode === null) listening.child.kill('SIGKILL');
      await hanging.close();
    }
  });

  it('when asked for help, or given a bad --forward-to or a public key, then it says how, or exits 2 or 4 without listening', async () => {
    const help = await inProcess(['webhooks', 'listen', '--help']);
    expect(help.code).to.equal(0);
    expect(help.stdout).to.include('--forward-to <url>').and.include('never connects to this machine');
    const badUrl = await inProcess(['--url', server.url, 'webhooks', 'listen', '--forward-to', 'localhost:4000', '--api-key', secretKey]);
    expect(badUrl.code).to.equal(2);
    expect(badUrl.stderr).to.include('--forward-to must be an http:// or https:// URL');
    const publicKey = await inProcess(['--url', server.url, 'webhooks', 'listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--api-key', server.apiKey]);
    expect(publicKey.code).to.equal(4);
    expect(await client.webhooks.list()).to.deep.equal([]);
  });
});
