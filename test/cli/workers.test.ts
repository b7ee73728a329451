import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { backends, type FreshDatabase } from '../helpers/backends.js';
import { inProcess, parseLogLine, startServe, type ServeProcess } from '../helpers/cli-process.js';
import { until } from '../helpers/until.js';

const LIMIT = 40;

for (const backend of backends()) {
  describe(`feedback serve --workers 2 (${backend.name})`, () => {
    let database: FreshDatabase;
    let server: ServeProcess;
    let key: string;
    let where: string[];
    before(async () => {
      // Migrated but empty (no project, no key): the first start still mints the key; nothing here is about the migrations.
      database = await backend.createMigrated();
      where = database.location.databaseUrl ? ['--database-url', database.location.databaseUrl] : ['--data-dir', database.location.dataDir];
      server = await startServe(['--workers', '2', '--rate-limit', String(LIMIT), ...where]);
      await until(() => /pk_/.test(server.stdout()), 30_000, () => `the first key in the server's output: ${server.stdout()}`);
      key = /(pk_[0-9A-Za-z]+)/.exec(server.stdout())![1]!;
    });
    after(async () => {
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      await server?.exited;
      await database?.drop();
    });

    it('when the server starts on an empty database with 2 workers, then the first key is printed exactly once', () => {
      expect(server.stdout().match(/First start/g)).to.have.length(1);
      expect(new Set(server.stdout().match(/pk_[0-9A-Za-z]+/g))).to.have.property('size', 1);
    });

    it(`8 rate limit: when ${3 * LIMIT} concurrent requests of one key are spread over both workers, then exactly ${LIMIT} pass and the rest get the spec's 429 with Retry-After`, async () => {
      // A key of its own, so the first key keeps its budget for the next test.
      // Through the running server, in this process: the key is the subject, not the binary.
      const created = await inProcess(['keys', 'create', '--json', ...where]);
      expect(created.code, created.stderr).to.equal(0);
      expect(created.code, created.stderr).to.equal(0);
      const limited = (JSON.parse(created.stdout) as { key: string }).key;
      const responses = await Promise.all(
        Array.from({ length: 3 * LIMIT }, () => fetch(`${server.url}/api/v1/feedback?limit=1`, { headers: { 'x-api-key': limited } })),
      );
      const bodies = await Promise.all(responses.map((res) => res.json()));
      expect(responses.filter((res) => res.status === 200)).to.have.length(LIMIT);
      const refused = responses.map((res, i) => ({ res, body: bodies[i] })).filter(({ res }) => res.status === 429);
      expect(refused).to.have.length(2 * LIMIT);
      for (const { res, body } of refused) {
        expect(body).to.deep.equal({ error: 'Too many requests, please slow down' });
        expect(Number(res.headers.get('retry-after'))).to.be.within(1, 60);
      }
      // Both workers answered: the request log names each one's pid (once each has written its lines).
      const pids = () =>
        new Set(
          server
            .stderr()
            .split('\n')
            .map(parseLogLine)
            .filter((entry) => entry?.msg === 'request')
            .map((entry) => entry!.pid),
        );
      await until(() => pids().size >= 2, 10_000, () => `request log lines of two processes (pids seen: ${[...pids()].join(', ')})`);
      expect(pids().size, 'requests were served by two processes').to.equal(2);
    });

    it('when operator requests of a secret key reach both workers, then each worker opens its ORM on the first one and every counter stays exact', async () => {
      const created = await inProcess(['keys', 'create', '--secret', '--json', ...where]);
      expect(created.code, created.stderr).to.equal(0);
      const secret = (JSON.parse(created.stdout) as { key: string }).key;
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${server.url}${path}`, { method, headers: { 'x-api-key': secret, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const item = (await (await call('POST', '/api/v1/feedback', { title: 'Changed by two workers' })).json()) as { feedback: { id: string } };
      const id = item.feedback.id;
      const replies = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) => call('PATCH', `/api/v1/feedback/${id}`, { status: i % 2 ? 'planned' : 'under-review' })),
        ...Array.from({ length: 8 }, (_, i) => call('POST', `/api/v1/feedback/${id}/comments`, { content: `Comment ${i}`, team: { name: 'Support' } })),
      ]);
      expect(replies.map((res) => res.status).filter((status) => status !== 200 && status !== 201)).to.deep.equal([]);
      const detail = (await (await call('GET', `/api/v1/feedback/${id}`)).json()) as { feedback: { commentCount: number; comments: unknown[]; statusHistory: unknown[] } };
      expect(detail.feedback.commentCount).to.equal(8);
      expect(detail.feedback.comments).to.have.length(8);
      expect(detail.feedback.statusHistory.length).to.be.within(1, 8);
    });

    it('when pulls wait on both workers and one event is written (waiting pulls cost a statement while nothing happens), then every pull is woken within its wait, told across processes (the primary, or NOTIFY)', async () => {
      const created = await inProcess(['keys', 'create', '--secret', '--json', ...where]);
      expect(created.code, created.stderr).to.equal(0);
      const secret = (JSON.parse(created.stdout) as { key: string }).key;
      const call = (method: string, path: string, body: unknown) =>
        fetch(`${server.url}${path}`, { method, headers: { 'x-api-key': secret, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const endpoints: string[] = [];
      for (let i = 0; i < 4; i++) {
        const made = (await (await call('POST', '/api/v1/webhooks/listen', { forwardTo: 'http://localhost:4000/hooks', events: ['feedback.created'] })).json()) as { webhook: { id: string } };
        endpoints.push(made.webhook.id);
      }
      const requestLines = () => server.stderr().split('\n').map(parseLogLine).filter((entry) => entry?.msg === 'request');
      const before = requestLines().length;
      // A timer of the pulls' wait, started before them: an answer that comes before it fires was woken
      // by the event, not by the end of its wait (an order, not a measured time).
      let waitOver = false;
      const waitTimer = setTimeout(() => (waitOver = true), 25_000);
      const pulls = endpoints.map(async (id) => {
        const answer = await call('POST', `/api/v1/webhooks/${id}/pull`, { waitSeconds: 25 });
        const body = (await answer.json()) as { items: { body: string }[] };
        return { woken: !waitOver, ids: body.items.map((item) => (JSON.parse(item.body) as { data: { feedback: { id: string } } }).data.feedback.id) };
      });
      // A moment for every pull to look for itself and wait. No condition shows a pull waiting in a
      // worker, and the test never fails for the pause: a pull that still looks finds the event itself.
      await sleep(1_000);
      const item = (await (await call('POST', '/api/v1/feedback', { title: 'Heard by every worker' })).json()) as { feedback: { id: string } };
      const answers = await Promise.all(pulls);
      clearTimeout(waitTimer);
      for (const answer of answers) {
        expect(answer.ids).to.deep.equal([item.feedback.id]);
        expect(answer.woken, 'woken by the event, before its wait ended').to.equal(true);
      }
      const pullPids = () => new Set(requestLines().slice(before).filter((entry) => String(entry!.path).endsWith('/pull')).map((entry) => entry!.pid));
      await until(() => pullPids().size >= 2, 10_000, () => `pulls answered by two processes (pids seen: ${[...pullPids()].join(', ')})`);
    });

    it('when SIGTERM arrives while a request is in flight, then that request completes, new connections are refused, and the server exits 0 within 10 s', async () => {
      const body = JSON.stringify({ title: 'Sent across a shutdown' });
      const { port } = new URL(server.url);
      const socket = await open(Number(port));
      const response = readAll(socket);
      // Headers and half of the body: the request is in flight until the rest arrives.
      socket.write(
        `POST /api/v1/feedback HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body.slice(0, 10)}`,
      );
      // The server is a child process, and nothing it shows says the half request has been read:
      // a pause for it to take the request in before the signal.
      await sleep(200);
      // The 10 s bound as a timer from the signal: the exit must come first (an order, not a measured time).
      let boundOver = false;
      const bound = setTimeout(() => (boundOver = true), 10_000);
      server.child.kill('SIGTERM');
      const refused = () =>
        open(Number(port)).then(
          (late) => {
            late.destroy();
            return false;
          },
          (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
        );
      // Refused as soon as the listener has closed, while the request in flight still waits for its body.
      await until(refused, 10_000, 'a new connection after SIGTERM to be refused');
      socket.write(body.slice(10));
      const text = await response;
      expect(text).to.match(/^HTTP\/1\.1 201 /);
      expect(text).to.include('Sent across a shutdown');
      expect(await server.exited).to.equal(0);
      clearTimeout(bound);
      expect(boundOver, 'the exit came after the 10 s bound').to.equal(false);
    });
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}
