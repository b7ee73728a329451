import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { rejection } from '../helpers/assertions.js';
import { settlesBefore } from '../helpers/until.js';
import {
  AuthenticationError,
  BadRequestError,
  FeedbackApiError,
  FeedbackClient,
  FeedbackError,
  NotFoundError,
  RateLimitError,
  type FeedbackClientOptions,
} from '@feedbackd/sdk';
import { backends, embeddedBackend } from '../helpers/backends.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';


/** Collects an async iterator. */
async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

for (const backend of backends()) {
  describe(`SDK against the real server (${backend.name})`, () => {
    let server: TestServer;
    let client: FeedbackClient;
    const extraClients: FeedbackClient[] = [];

    before(async () => {
      server = await startTestServer(backend);
      client = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey });
    });
    after(async () => {
      await client?.close();
      await server?.close();
    });
    afterEach(async () => {
      await Promise.all(extraClients.splice(0).map((c) => c.close()));
    });

    function clientWith(options: FeedbackClientOptions): FeedbackClient {
      const created = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, ...options });
      extraClients.push(created);
      return created;
    }

    describe('methods', () => {
      it('when users.identify is called twice with one externalId, then the same user is returned with the updated fields', async () => {
        const externalId = `sdk-user-${randomUUID()}`;
        const created = await client.users.identify({ externalId, email: 'ada@example.com', name: 'Ada' });
        expect(created).to.include({ email: 'ada@example.com', name: 'Ada', avatarUrl: null });
        expect(created.id).to.be.a('string');
        expect(created.createdAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        const updated = await client.users.identify({ externalId, name: 'Ada L.', avatarUrl: 'https://example.com/ada.png' });
        expect(updated).to.deep.equal({ ...created, name: 'Ada L.', avatarUrl: 'https://example.com/ada.png' });
      });

      it('when feedback.create is called, then the item is returned as new, with voteCount 1, commentCount 0 and type idea by default', async () => {
        const item = await client.feedback.create({ title: '  SDK create  ', description: 'from the SDK', endUser: { externalId: 'sdk-creator', name: 'Cree' } });
        expect(item).to.deep.include({
          title: 'SDK create',
          description: 'from the SDK',
          type: 'idea',
          status: 'new',
          voteCount: 1,
          commentCount: 0,
          endUser: { name: 'Cree', avatarUrl: null },
        });
        const anonymous = await client.feedback.create({ title: 'Anonymous bug', type: 'bug' });
        expect(anonymous).to.include({ type: 'bug', endUser: null, description: null });
      });

      it('when feedback.get is called, then the detail has its comments and userHasVoted for the given endUserId', async () => {
        const externalId = `sdk-detail-${randomUUID()}`;
        const item = await client.feedback.create({ title: 'SDK detail', endUser: { externalId } });
        const mine = await client.feedback.get(item.id, { endUserId: externalId });
        // The submitter is subscribed by submitting (issue 40): an endUserId's detail says so.
        expect(mine).to.deep.equal({ ...item, userHasVoted: true, comments: [], userIsSubscribed: true });
        const other = await client.feedback.get(item.id, { endUserId: 'someone-else' });
        expect(other.userHasVoted).to.equal(false);
        const anonymous = await client.feedback.get(item.id);
        expect(anonymous.userHasVoted).to.equal(false);
      });

      it('when feedback.list is called with search, sortBy, page and limit, then the page and its counts match', async () => {
        const tag = `sdk-list-${randomUUID()}`;
        for (let i = 0; i < 3; i++) await client.feedback.create({ title: `${tag} ${i}` });
        const first = await client.feedback.list({ search: tag, sortBy: 'oldest', page: 1, limit: 2 });
        expect(first).to.include({ total: 3, page: 1, limit: 2, totalPages: 2 });
        expect(first.items.map((item) => item.title)).to.deep.equal([`${tag} 0`, `${tag} 1`]);
        const second = await client.feedback.list({ search: tag, sortBy: 'oldest', page: 2, limit: 2 });
        expect(second.items.map((item) => item.title)).to.deep.equal([`${tag} 2`]);
      });

      it('when feedback.list gets status and type arrays, then items matching any of the values are returned', async () => {
        const tag = `sdk-filter-${randomUUID()}`;
        const bug = await client.feedback.create({ title: `${tag} bug`, type: 'bug' });
        const idea = await client.feedback.create({ title: `${tag} idea`, type: 'idea' });
        const question = await client.feedback.create({ title: `${tag} question`, type: 'question' });
        await server.sql('update feedback set status = ? where id = ?', ['planned', idea.id]);
        await server.sql('update feedback set status = ? where id = ?', ['closed', question.id]);

        const ids = async (params: Parameters<FeedbackClient['feedback']['list']>[0]) =>
          (await client.feedback.list({ search: tag, sortBy: 'oldest', ...params })).items.map((item) => item.id);
        expect(await ids({ type: ['bug', 'question'] })).to.deep.equal([bug.id, question.id]);
        expect(await ids({ type: 'idea' })).to.deep.equal([idea.id]);
        expect(await ids({ status: ['new', 'planned'] })).to.deep.equal([bug.id, idea.id]);
        expect(await ids({ status: 'closed', type: ['question', 'other'] })).to.deep.equal([question.id]);
        expect(await ids({ status: ['completed', 'in-progress'] })).to.deep.equal([]);
      });

      it('when feedback.listAll runs over several small pages, then every matching item is yielded exactly once', async () => {
        const tag = `sdk-all-${randomUUID()}`;
        const created: string[] = [];
        for (let i = 0; i < 7; i++) created.push((await client.feedback.create({ title: `${tag} ${i}` })).id);
        const items = await collect(client.feedback.listAll({ search: tag, limit: 3 }));
        expect(items).to.have.length(7);
        expect(new Set(items.map((item) => item.id)).size).to.equal(7);
        expect([...items.map((item) => item.id)].sort()).to.deep.equal([...created].sort());
        // newest first, the default order
        expect(items.map((item) => item.id)).to.deep.equal([...created].reverse());
        expect(await collect(client.feedback.listAll({ search: `${tag}-none`, limit: 3 }))).to.deep.equal([]);
      });

      it('when votes.toggle and votes.get are called for an end user, then the vote is added, seen, and removed', async () => {
        const item = await client.feedback.create({ title: 'SDK vote', endUser: { externalId: `sdk-owner-${randomUUID()}` } });
        const voter = `sdk-voter-${randomUUID()}`;
        expect(await client.votes.get(item.id, { endUserId: voter })).to.deep.equal({ voted: false, voteCount: 1 });
        expect(await client.votes.toggle(item.id, { endUser: { externalId: voter, name: 'Vic' } })).to.deep.equal({ voted: true, voteCount: 2 });
        expect(await client.votes.get(item.id, { endUserId: voter })).to.deep.equal({ voted: true, voteCount: 2 });
        expect((await client.feedback.get(item.id, { endUserId: voter })).userHasVoted).to.equal(true);
        expect(await client.votes.toggle(item.id, { endUser: { externalId: voter } })).to.deep.equal({ voted: false, voteCount: 1 });
        expect(await client.votes.get(item.id, { endUserId: voter })).to.deep.equal({ voted: false, voteCount: 1 });
      });

      it('when votes.toggle is called without a body, then the vote is anonymous (by IP) and the next one removes it; each call has its own key', async () => {
        const item = await client.feedback.create({ title: 'SDK anonymous vote', endUser: { externalId: `sdk-owner-${randomUUID()}` } });
        expect(await client.votes.toggle(item.id)).to.deep.equal({ voted: true, voteCount: 2 });
        expect(await client.votes.get(item.id)).to.deep.equal({ voted: true, voteCount: 2 });
        expect(await client.votes.toggle(item.id)).to.deep.equal({ voted: false, voteCount: 1 });
      });
    });

    describe('errors', () => {
      it('when the input is invalid, then BadRequestError carries "Invalid input" and the field details', async () => {
        const error = await rejection(client.feedback.create({ title: '' }));
        expect(error).to.be.instanceOf(BadRequestError);
        const bad = error as BadRequestError;
        expect(bad.status).to.equal(400);
        expect(bad.message).to.equal('Invalid input');
        expect(bad.details?.fieldErrors.title).to.deep.equal(['Title is required']);
        expect(bad.details?.formErrors).to.deep.equal([]);
        expect(bad.requestId).to.be.a('string').and.not.equal('');
        expect(bad.headers['content-type']).to.match(/application\/json/);

        const typeError = await rejection(client.feedback.create({ title: 't', type: 'feature' as never }));
        expect(typeError).to.be.instanceOf(BadRequestError);
        expect((typeError as BadRequestError).details?.fieldErrors.type?.[0]).to.match(/bug, idea, question, other/);

        const listError = await rejection(client.feedback.list({ limit: 101 }));
        expect(listError).to.be.instanceOf(BadRequestError);
        expect((listError as BadRequestError).details?.fieldErrors).to.have.property('limit');
      });

      it('when the API key is invalid, then AuthenticationError "Invalid API key" is thrown', async () => {
        const error = await rejection(clientWith({ apiKey: `pk_${'A'.repeat(40)}` }).feedback.list());
        expect(error).to.be.instanceOf(AuthenticationError);
        expect((error as AuthenticationError).status).to.equal(401);
        expect((error as Error).message).to.equal('Invalid API key');
      });

      it('when the item does not exist, then every method on it throws NotFoundError "Feedback not found"', async () => {
        const missing = randomUUID();
        const calls = [() => client.feedback.get(missing), () => client.votes.get(missing), () => client.votes.toggle(missing), () => client.feedback.get('no/such id')];
        for (const call of calls) {
          const error = await rejection(call());
          expect(error).to.be.instanceOf(NotFoundError);
          expect((error as NotFoundError).status).to.equal(404);
          expect((error as Error).message).to.equal('Feedback not found');
          expect((error as NotFoundError).body).to.deep.equal({ error: 'Feedback not found' });
        }
      });
    });

    describe('idempotency', () => {
      it('when votes.toggle is sent twice with one idempotencyKey, then the second call returns the same result and the vote counts once', async () => {
        const item = await client.feedback.create({ title: 'SDK idempotent toggle', endUser: { externalId: `sdk-owner-${randomUUID()}` } });
        const voter = `sdk-idem-${randomUUID()}`;
        const key = randomUUID();
        const first = await client.votes.toggle(item.id, { endUser: { externalId: voter } }, { idempotencyKey: key });
        const second = await client.votes.toggle(item.id, { endUser: { externalId: voter } }, { idempotencyKey: key });
        expect(first).to.deep.equal({ voted: true, voteCount: 2 });
        expect(second).to.deep.equal(first);
        expect(await client.votes.get(item.id, { endUserId: voter })).to.deep.equal({ voted: true, voteCount: 2 });
        // A new key is a new toggle.
        expect(await client.votes.toggle(item.id, { endUser: { externalId: voter } })).to.deep.equal({ voted: false, voteCount: 1 });
      });

      it('when one idempotencyKey is reused with a different body, then BadRequestError is thrown and nothing changes', async () => {
        const item = await client.feedback.create({ title: 'SDK key reuse', endUser: { externalId: `sdk-owner-${randomUUID()}` } });
        const key = randomUUID();
        await client.votes.toggle(item.id, { endUser: { externalId: 'reuse-a' } }, { idempotencyKey: key });
        const error = await rejection(client.votes.toggle(item.id, { endUser: { externalId: 'reuse-b' } }, { idempotencyKey: key }));
        expect(error).to.be.instanceOf(BadRequestError);
        expect(await client.votes.get(item.id, { endUserId: 'reuse-b' })).to.deep.equal({ voted: false, voteCount: 2 });
      });

      it('when the response of a toggle is lost on the way back, then the SDK retry is replayed and the vote is applied once', async () => {
        const item = await client.feedback.create({ title: 'SDK lost response', endUser: { externalId: `sdk-owner-${randomUUID()}` } });
        const voter = `sdk-lost-${randomUUID()}`;
        // A proxy that forwards every request to the server, but drops the connection instead of
        // returning the first response: the toggle happened, the client never heard of it.
        const seen: { key: string | undefined; replayed: string | null }[] = [];
        const proxy: Server = createServer(async (req: IncomingMessage, res) => {
          const chunks: Buffer[] = [];
          for await (const chunk of req) chunks.push(chunk as Buffer);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(req.headers)) {
            if (typeof value === 'string' && name !== 'host' && name !== 'connection' && name !== 'content-length') headers[name] = value;
          }
          const upstream = await fetch(server.url + req.url, { method: req.method!, headers, body: chunks.length ? Buffer.concat(chunks) : null });
          const text = await upstream.text();
          seen.push({ key: headers['idempotency-key'], replayed: upstream.headers.get('idempotent-replayed') });
          if (seen.length === 1) {
            req.socket.destroy();
            return;
          }
          res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
          res.end(text);
        });
        await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
        const proxied = clientWith({ baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, maxRetryDelayMs: 50 });
        try {
          const result = await proxied.votes.toggle(item.id, { endUser: { externalId: voter } });
          expect(result).to.deep.equal({ voted: true, voteCount: 2 });
          expect(seen).to.have.length(2);
          expect(seen[1]!.key).to.equal(seen[0]!.key);
          expect(seen[0]!.replayed).to.equal(null);
          expect(seen[1]!.replayed).to.equal('true');
          expect(await client.votes.get(item.id, { endUserId: voter })).to.deep.equal({ voted: true, voteCount: 2 });
        } finally {
          await proxied.close();
          await new Promise<void>((resolve) => {
            proxy.close(() => resolve());
            proxy.closeAllConnections();
          });
        }
      });
    });
  });
}

describe(`SDK against a rate-limited server, 2 per minute (${embeddedBackend.name})`, () => {
  let server: TestServer;
  const clients: FeedbackClient[] = [];
  before(async () => {
    server = await startTestServer(embeddedBackend, { rateLimit: 2 });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.close();
  });

  /** A client with a fresh key, so a fresh budget of 2. */
  async function freshClient(options: FeedbackClientOptions = {}): Promise<FeedbackClient> {
    const created = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(), ...options });
    clients.push(created);
    return created;
  }

  it('when the budget is spent and maxRetries is 0, then RateLimitError comes at once with the message and retryAfter in seconds', async () => {
    const client = await freshClient({ maxRetries: 0 });
    await client.feedback.list();
    await client.feedback.list();
    const call = rejection(client.feedback.list());
    expect(await settlesBefore(5_000, call), 'at once, not after a wait').to.equal(true);
    const error = await call;
    expect(error).to.be.instanceOf(RateLimitError);
    expect(error).to.be.instanceOf(FeedbackApiError);
    const limited = error as RateLimitError;
    expect(limited.status).to.equal(429);
    expect(limited.message).to.equal('Too many requests, please slow down');
    expect(limited.retryAfter).to.be.a('number').within(1, 60);
    expect(limited.retryAfter).to.equal(Number(limited.headers['retry-after']));
    expect(limited.headers['x-ratelimit-remaining']).to.equal('0');
  });

  it('when the server asks to wait longer than maxRetryDelayMs, then the default client does not retry early and throws RateLimitError at once', async () => {
    const client = await freshClient();
    await client.votes.get(randomUUID()).catch(() => {});
    await client.votes.get(randomUUID()).catch(() => {});
    const call = rejection(client.feedback.create({ title: 'limited' }));
    // The server asks for more than 8 s: an answer before a timer of 5 s is one without a wait.
    expect(await settlesBefore(5_000, call), 'at once, not after a wait').to.equal(true);
    const error = await call;
    expect(error).to.be.instanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).to.be.above(8);
  });
});
