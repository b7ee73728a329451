import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { rejection } from '../helpers/assertions.js';
import { settlesBefore, until } from '../helpers/until.js';
import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FeedbackApiError,
  FeedbackClient,
  FeedbackError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  SDK_VERSION,
  TimeoutError,
  UnexpectedResponseError,
  type FeedbackClientOptions,
} from '@feedbackd/sdk';
import { backoffDelay, parseRetryAfter, RETRY_BASE_DELAY_MS, retryDelay } from '@feedbackd/sdk/testing';

/** The SDK's version as its package.json says: the `user-agent` carries it, whatever the release. */
const SDK_PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../sdk/package.json', import.meta.url), 'utf8')) as { version: string }).version;

// A local node:http server stands in for the API wherever the real server cannot produce the
// fault under test: dropped sockets, silence, malformed or contract-breaking bodies, exact timing.

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers request number `n` (1-based); may also leave it unanswered or destroy its socket. */
type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

interface Stub {
  url: string;
  server: Server;
  requests: Recorded[];
  connections(): Promise<number>;
  close(): Promise<void>;
}

async function startStub(handler: Handler): Promise<Stub> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res, requests.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    requests,
    connections: () => new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

const ITEM = {
  id: '0b5f4a3e-2c1d-4e8f-9a7b-6c5d4e3f2a1b',
  title: 'Export to CSV',
  description: null,
  type: 'idea',
  status: 'new',
  voteCount: 1,
  commentCount: 0,
  createdAt: '2026-01-02T03:04:05.678Z',
  endUser: null,
} as const;
const DETAIL = { ...ITEM, userHasVoted: false, comments: [] };
const VOTE = { voted: true, voteCount: 2 };
const USER = { id: 'c7d1e2f3-0000-4000-8000-000000000001', email: null, name: 'Ada', avatarUrl: null, createdAt: '2026-01-02T03:04:05.678Z' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A page of `total` numbered items, `limit` per page. */
function page(n: number, limit: number, total: number) {
  const count = Math.max(0, Math.min(limit, total - (n - 1) * limit));
  const items = Array.from({ length: count }, (_, i) => ({ ...ITEM, id: `item-${(n - 1) * limit + i + 1}` }));
  return { items, total, page: n, limit, totalPages: Math.ceil(total / limit) };
}


describe('SDK against a local stub server', () => {
  const clients: FeedbackClient[] = [];
  const stubs: Stub[] = [];

  /** A client of `stub` (closed after the test); fast retries unless the test says otherwise. */
  function clientOf(stub: { url: string }, options: FeedbackClientOptions = {}): FeedbackClient {
    const client = new FeedbackClient({ baseUrl: stub.url, apiKey: 'pk_test_key', maxRetryDelayMs: 50, ...options });
    clients.push(client);
    return client;
  }

  async function stub(handler: Handler): Promise<Stub> {
    const started = await startStub(handler);
    stubs.push(started);
    return started;
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(stubs.splice(0).map((s) => s.close()));
  });

  describe('requests', () => {
    it('when a POST is made, then it carries x-api-key, accept, content-type, the SDK user-agent, a UUID Idempotency-Key and the JSON body', async () => {
      const s = await stub((_req, res) => json(res, 201, { feedback: ITEM }));
      const item = await clientOf(s).feedback.create({ title: 'Export to CSV', type: 'idea' });
      expect(item).to.deep.equal(ITEM);
      expect(s.requests).to.have.length(1);
      const [request] = s.requests;
      expect(request!.method).to.equal('POST');
      expect(request!.url).to.equal('/api/v1/feedback');
      expect(request!.headers['x-api-key']).to.equal('pk_test_key');
      expect(request!.headers.accept).to.equal('application/json');
      expect(request!.headers['content-type']).to.equal('application/json');
      expect(request!.headers['user-agent']).to.equal(`feedback-sdk/${SDK_PACKAGE_VERSION} node/${process.versions.node}`);
      expect(request!.headers['idempotency-key']).to.match(UUID);
      expect(JSON.parse(request!.body)).to.deep.equal({ title: 'Export to CSV', type: 'idea' });
    });

    it('when GETs are made, then they carry x-api-key and accept but no Idempotency-Key, no content-type and no body', async () => {
      const s = await stub((req, res) => (req.url!.startsWith('/api/v1/feedback?') || req.url === '/api/v1/feedback' ? json(res, 200, page(1, 20, 0)) : json(res, 200, VOTE)));
      const client = clientOf(s);
      await client.feedback.list();
      await client.votes.get('abc', {}, { idempotencyKey: 'ignored-on-get' });
      for (const request of s.requests) {
        expect(request.method).to.equal('GET');
        expect(request.headers['x-api-key']).to.equal('pk_test_key');
        expect(request.headers.accept).to.equal('application/json');
        expect(request.headers).to.not.have.property('idempotency-key');
        expect(request.headers).to.not.have.property('content-type');
        expect(request.body).to.equal('');
      }
    });

    it('when two POSTs are made without a key, then each gets a fresh Idempotency-Key; an explicit idempotencyKey is sent as given', async () => {
      const s = await stub((_req, res) => json(res, 200, VOTE));
      const client = clientOf(s);
      await client.votes.toggle('a');
      await client.votes.toggle('a');
      await client.votes.toggle('a', {}, { idempotencyKey: 'my-key-1' });
      const keys = s.requests.map((r) => r.headers['idempotency-key']);
      expect(keys[0]).to.match(UUID);
      expect(keys[1]).to.match(UUID);
      expect(keys[0]).to.not.equal(keys[1]);
      expect(keys[2]).to.equal('my-key-1');
    });

    it('when retries are off, then a POST, PATCH or DELETE carries no Idempotency-Key unless one is given', async () => {
      const s = await stub((req, res) => json(res, 200, req.method === 'POST' ? VOTE : { deleted: true }));
      const client = clientOf(s, { maxRetries: 0 });
      await client.votes.toggle('a');
      await client.votes.toggle('a', {}, { idempotencyKey: 'given-1' });
      await clientOf(s).votes.toggle('a', {}, { maxRetries: 0 });
      await clientOf(s, { maxRetries: 0 }).votes.toggle('a', {}, { maxRetries: 1 });
      const keys = s.requests.map((r) => r.headers['idempotency-key']);
      expect(keys[0], 'client maxRetries 0').to.equal(undefined);
      expect(keys[1], 'a key given').to.equal('given-1');
      expect(keys[2], 'call maxRetries 0').to.equal(undefined);
      expect(keys[3], 'call maxRetries 1 on a client without retries').to.match(UUID);
    });

    it('when a toggle has no body argument, then it sends {} (an anonymous vote); with endUser it sends it', async () => {
      const s = await stub((_req, res) => json(res, 200, VOTE));
      const client = clientOf(s);
      await client.votes.toggle('a');
      await client.votes.toggle('a', { endUser: { externalId: 'u-1', name: 'Ada' } });
      expect(s.requests.map((r) => JSON.parse(r.body))).to.deep.equal([{}, { endUser: { externalId: 'u-1', name: 'Ada' } }]);
    });

    it('when list gets status and type arrays, then each is one comma-separated parameter and undefined parameters are left out', async () => {
      const s = await stub((_req, res) => json(res, 200, page(2, 5, 12)));
      const client = clientOf(s);
      await client.feedback.list({ status: ['new', 'planned'], type: ['bug', 'idea'], search: 'dark mode & more', sortBy: 'votes', page: 2, limit: 5 });
      await client.feedback.list({ status: 'closed', search: undefined });
      await client.feedback.list({});
      expect(s.requests.map((r) => r.url)).to.deep.equal([
        '/api/v1/feedback?status=new,planned&type=bug,idea&search=dark%20mode%20%26%20more&sortBy=votes&page=2&limit=5',
        '/api/v1/feedback?status=closed',
        '/api/v1/feedback',
      ]);
    });

    it('when an id has reserved characters, then it is URL-encoded into one path segment; endUserId goes in the query', async () => {
      const s = await stub((req, res) => (req.url!.includes('/vote') ? json(res, 200, VOTE) : json(res, 200, { feedback: DETAIL })));
      const client = clientOf(s);
      await client.feedback.get('a/b c?d', { endUserId: 'user#1' });
      await client.votes.get('../x');
      await client.votes.toggle('%2F');
      expect(s.requests.map((r) => r.url)).to.deep.equal([
        '/api/v1/feedback/a%2Fb%20c%3Fd?endUserId=user%231',
        '/api/v1/feedback/..%2Fx/vote',
        '/api/v1/feedback/%252F/vote',
      ]);
    });

    it('when an id is empty, then the call rejects with a FeedbackError before any request', async () => {
      const s = await stub((_req, res) => json(res, 200, VOTE));
      const error = await rejection(clientOf(s).votes.get(''));
      expect(error).to.be.instanceOf(FeedbackError);
      expect((error as Error).message).to.equal('id must be a non-empty string');
      expect(s.requests).to.have.length(0);
    });

    it('when baseUrl has a trailing slash or a path prefix, then paths are appended correctly and baseUrl is normalised', async () => {
      const s = await stub((_req, res) => json(res, 200, { user: USER }));
      const plain = clientOf(s, { baseUrl: `${s.url}/` });
      const prefixed = clientOf(s, { baseUrl: `${s.url}/feedback-api//` });
      expect(plain.baseUrl).to.equal(s.url);
      expect(prefixed.baseUrl).to.equal(`${s.url}/feedback-api`);
      expect(await plain.users.identify({ externalId: 'u-1' })).to.deep.equal(USER);
      await prefixed.users.identify({ externalId: 'u-1' });
      expect(s.requests.map((r) => r.url)).to.deep.equal(['/api/v1/identify', '/feedback-api/api/v1/identify']);
    });

    it('when userAgent is given, then it is put in front of the SDK user-agent, and SDK_VERSION matches sdk/package.json', async () => {
      const s = await stub((_req, res) => json(res, 200, VOTE));
      await clientOf(s, { userAgent: 'my-app/2.0' }).votes.get('a');
      expect(s.requests[0]!.headers['user-agent']).to.equal(`my-app/2.0 feedback-sdk/${SDK_VERSION} node/${process.versions.node}`);
      const pkg = JSON.parse(readFileSync(new URL('../../sdk/package.json', import.meta.url), 'utf8')) as { version: string };
      expect(SDK_VERSION).to.equal(pkg.version);
    });
  });

  describe('options and environment', () => {
    const saved = { url: process.env.FEEDBACK_URL, key: process.env.FEEDBACK_API_KEY };
    afterEach(() => {
      for (const [name, value] of [['FEEDBACK_URL', saved.url], ['FEEDBACK_API_KEY', saved.key]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it('when baseUrl and apiKey are not given, then FEEDBACK_URL and FEEDBACK_API_KEY are used', async () => {
      const s = await stub((_req, res) => json(res, 200, VOTE));
      process.env.FEEDBACK_URL = `${s.url}/`;
      process.env.FEEDBACK_API_KEY = 'pk_from_env';
      const client = new FeedbackClient();
      clients.push(client);
      expect(client.baseUrl).to.equal(s.url);
      await client.votes.get('a');
      expect(s.requests[0]!.headers['x-api-key']).to.equal('pk_from_env');
    });

    it('when options and environment variables are both set, then the options win', async () => {
      const s = await stub((_req, res) => json(res, 200, VOTE));
      process.env.FEEDBACK_URL = 'http://127.0.0.1:1';
      process.env.FEEDBACK_API_KEY = 'pk_from_env';
      await clientOf(s, { apiKey: 'pk_from_option' }).votes.get('a');
      expect(s.requests[0]!.headers['x-api-key']).to.equal('pk_from_option');
    });

    it('when neither baseUrl nor FEEDBACK_URL is set, then the client uses http://127.0.0.1:3000', () => {
      delete process.env.FEEDBACK_URL;
      const client = new FeedbackClient({ apiKey: 'pk_x' });
      clients.push(client);
      expect(client.baseUrl).to.equal('http://127.0.0.1:3000');
    });

    it('when there is no apiKey and no FEEDBACK_API_KEY, then the constructor throws FeedbackError "No API key: pass apiKey or set FEEDBACK_API_KEY"', () => {
      delete process.env.FEEDBACK_API_KEY;
      expect(() => new FeedbackClient({ baseUrl: 'http://127.0.0.1:3000' }))
        .to.throw(FeedbackError, /^No API key: pass apiKey or set FEEDBACK_API_KEY$/);
      process.env.FEEDBACK_API_KEY = '';
      expect(() => new FeedbackClient()).to.throw(FeedbackError, /^No API key/);
    });

    it('when an option is invalid, then the constructor or the call throws a FeedbackError naming it', async () => {
      expect(() => new FeedbackClient({ apiKey: 'k', baseUrl: 'not a url' })).to.throw(FeedbackError, /Invalid baseUrl/);
      expect(() => new FeedbackClient({ apiKey: 'k', baseUrl: 'ftp://example.com' })).to.throw(FeedbackError, /http:\/\/ or https:\/\//);
      expect(() => new FeedbackClient({ apiKey: 'k', timeoutMs: 0 })).to.throw(FeedbackError, /timeoutMs/);
      expect(() => new FeedbackClient({ apiKey: 'k', maxRetries: -1 })).to.throw(FeedbackError, /maxRetries/);
      expect(() => new FeedbackClient({ apiKey: 'k', maxRetries: 1.5 })).to.throw(FeedbackError, /maxRetries/);
      expect(() => new FeedbackClient({ apiKey: 'k', maxRetryDelayMs: Number.NaN })).to.throw(FeedbackError, /maxRetryDelayMs/);
      const s = await stub((_req, res) => json(res, 200, VOTE));
      const error = await rejection(clientOf(s).votes.get('a', {}, { timeoutMs: -5 }));
      expect(error).to.be.instanceOf(FeedbackError);
      expect((error as Error).message).to.match(/timeoutMs/);
      expect(s.requests).to.have.length(0);
    });
  });

  describe('responses that break the contract', () => {
    it('when a 200 body is not JSON, then UnexpectedResponseError names the operation, keeps the raw body and is not retried', async () => {
      const s = await stub((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"items": [');
      });
      const error = await rejection(clientOf(s).feedback.list());
      expect(error).to.be.instanceOf(UnexpectedResponseError);
      expect(error).to.be.instanceOf(FeedbackError);
      const unexpected = error as UnexpectedResponseError;
      expect(unexpected.status).to.equal(200);
      expect(unexpected.body).to.equal('{"items": [');
      expect(unexpected.message).to.match(/^feedback\.list \(GET \/api\/v1\/feedback\): the 200 response is not JSON/);
      expect(unexpected.name).to.equal('UnexpectedResponseError');
      expect(s.requests).to.have.length(1);
    });

    it('when a vote result has voteCount "x", then UnexpectedResponseError names votes.toggle and the voteCount issue', async () => {
      const s = await stub((_req, res) => json(res, 200, { voted: true, voteCount: 'x' }));
      const error = await rejection(clientOf(s).votes.toggle('a'));
      expect(error).to.be.instanceOf(UnexpectedResponseError);
      expect((error as UnexpectedResponseError).message).to.match(/^votes\.toggle \(POST \/api\/v1\/feedback\/:id\/vote\): the 200 response breaks the contract: voteCount: .*expected number/);
      expect((error as UnexpectedResponseError).body).to.deep.equal({ voted: true, voteCount: 'x' });
      expect(s.requests).to.have.length(1);
    });

    it('when a detail lacks a required field, then UnexpectedResponseError names the missing path instead of returning undefined later', async () => {
      const { comments: _omitted, ...withoutComments } = DETAIL;
      const s = await stub((_req, res) => json(res, 200, { feedback: withoutComments }));
      const error = await rejection(clientOf(s).feedback.get('a'));
      expect(error).to.be.instanceOf(UnexpectedResponseError);
      expect((error as Error).message).to.match(/^feedback\.get \(GET \/api\/v1\/feedback\/:id\): .*feedback\.comments: /);
    });

    it('when a list item has a status outside the contract or a user lacks createdAt, then UnexpectedResponseError is thrown', async () => {
      const s = await stub((req, res) =>
        req.url === '/api/v1/identify'
          ? json(res, 200, { user: { ...USER, createdAt: undefined } })
          : json(res, 200, { ...page(1, 20, 1), items: [{ ...ITEM, status: 'archived' }] }),
      );
      const client = clientOf(s);
      const listError = await rejection(client.feedback.list());
      expect(listError).to.be.instanceOf(UnexpectedResponseError);
      expect((listError as Error).message).to.match(/items\.0\.status: /);
      const userError = await rejection(client.users.identify({ externalId: 'u' }));
      expect(userError).to.be.instanceOf(UnexpectedResponseError);
      expect((userError as Error).message).to.match(/^users\.identify .*user\.createdAt: /);
    });

    it('when a success status is not the one the contract lists, then UnexpectedResponseError says so', async () => {
      const s = await stub((_req, res) => json(res, 200, { feedback: ITEM }));
      const error = await rejection(clientOf(s).feedback.create({ title: 't' }));
      expect(error).to.be.instanceOf(UnexpectedResponseError);
      expect((error as UnexpectedResponseError).status).to.equal(200);
      // 202: a post the project holds for its team (docs/moderation.md).
      expect((error as Error).message).to.match(/unexpected status 200 \(the contract answers 201 or 202\)/);
    });
  });

  describe('error statuses', () => {
    const cases = [
      { status: 400, body: { error: 'Invalid input', details: { formErrors: [], fieldErrors: { title: ['Title is required'] } } }, type: BadRequestError },
      { status: 401, body: { error: 'Invalid API key' }, type: AuthenticationError },
      { status: 404, body: { error: 'Feedback not found' }, type: NotFoundError },
      { status: 405, body: { error: 'Method Not Allowed' }, type: FeedbackApiError },
      { status: 409, body: { error: 'Conflict' }, type: FeedbackApiError },
      { status: 413, body: { error: 'Request body too large: the limit is 1 MB' }, type: FeedbackApiError },
      { status: 415, body: { error: 'Unsupported charset: send JSON in UTF-8' }, type: FeedbackApiError },
    ] as const;
    for (const { status, body, type } of cases) {
      it(`when the server answers ${status}, then ${type.name} is thrown with status, message, headers, request id and body, and it is not retried`, async () => {
        // A 409 is retried only with Retry-After (an Idempotency-Key still in progress; see below).
        const retryAfter: Record<string, string> = status === 409 ? {} : { 'retry-after': '0' };
        const s = await stub((_req, res) => json(res, status, body, { 'x-request-id': 'req-123', ...retryAfter }));
        const error = await rejection(clientOf(s, { maxRetries: 3 }).votes.toggle('a'));
        expect(error).to.be.instanceOf(type);
        expect(error).to.be.instanceOf(FeedbackApiError);
        expect(error).to.be.instanceOf(FeedbackError);
        if (type === FeedbackApiError) expect(Object.getPrototypeOf(error)).to.equal(FeedbackApiError.prototype);
        const apiError = error as FeedbackApiError;
        expect(apiError.status).to.equal(status);
        expect(apiError.message).to.equal(body.error);
        expect(apiError.name).to.equal(type.name);
        expect(apiError.requestId).to.equal('req-123');
        expect(apiError.headers['x-request-id']).to.equal('req-123');
        expect(apiError.body).to.deep.equal(body);
        expect(apiError.details).to.deep.equal('details' in body ? body.details : undefined);
        expect(s.requests).to.have.length(1);
      });
    }

    it('when a 500 comes with maxRetries 0, then InternalServerError is thrown after exactly one request', async () => {
      const s = await stub((_req, res) => json(res, 500, { error: 'Internal server error' }));
      const error = await rejection(clientOf(s, { maxRetries: 0 }).feedback.list());
      expect(error).to.be.instanceOf(InternalServerError);
      expect((error as InternalServerError).status).to.equal(500);
      expect((error as Error).message).to.equal('Internal server error');
      expect(s.requests).to.have.length(1);
    });

    it('when a proxy answers 502 with HTML, then InternalServerError "HTTP 502" keeps the raw text and the call is retried', async () => {
      const s = await stub((_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>Bad gateway</html>');
      });
      const error = await rejection(clientOf(s, { maxRetries: 1 }).feedback.list());
      expect(error).to.be.instanceOf(InternalServerError);
      expect((error as Error).message).to.equal('HTTP 502');
      expect((error as InternalServerError).body).to.equal('<html>Bad gateway</html>');
      expect(s.requests).to.have.length(2);
    });
  });

  describe('retries', () => {
    it('when the server answers 503 and then 200, then the call succeeds after one retry with the same Idempotency-Key', async () => {
      const s = await stub((_req, res, n) => (n === 1 ? json(res, 503, { error: 'Service unavailable' }) : json(res, 200, VOTE)));
      const result = await clientOf(s).votes.toggle('a', { endUser: { externalId: 'u-1' } });
      expect(result).to.deep.equal(VOTE);
      expect(s.requests).to.have.length(2);
      const [first, second] = s.requests;
      expect(first!.headers['idempotency-key']).to.match(UUID);
      expect(second!.headers['idempotency-key']).to.equal(first!.headers['idempotency-key']);
      expect(second!.body).to.equal(first!.body);
    });

    it('when a POST gets 409 with Retry-After (its Idempotency-Key still in progress), then it is retried with the same key and succeeds', async () => {
      const s = await stub((_req, res, n) =>
        n === 1 ? json(res, 409, { error: 'A request with Idempotency-Key "k" is still being processed; retry it later' }, { 'retry-after': '0' }) : json(res, 200, VOTE),
      );
      const result = await clientOf(s).votes.toggle('a', {}, { idempotencyKey: 'k' });
      expect(result).to.deep.equal(VOTE);
      expect(s.requests.map((r) => r.headers['idempotency-key'])).to.deep.equal(['k', 'k']);
    });

    it('when every attempt fails with 500, then the call is made 1 + maxRetries times and the last error is thrown', async () => {
      const s = await stub((_req, res) => json(res, 500, { error: 'Internal server error' }));
      const error = await rejection(clientOf(s, { maxRetries: 3 }).feedback.create({ title: 't' }, { idempotencyKey: 'fixed' }));
      expect(error).to.be.instanceOf(InternalServerError);
      expect(s.requests).to.have.length(4);
      expect(s.requests.map((r) => r.headers['idempotency-key'])).to.deep.equal(['fixed', 'fixed', 'fixed', 'fixed']);
    });

    it('when a per-call maxRetries is given, then it overrides the client option', async () => {
      const s = await stub((_req, res) => json(res, 503, { error: 'busy' }));
      await rejection(clientOf(s, { maxRetries: 3 }).feedback.list({}, { maxRetries: 1 }));
      expect(s.requests).to.have.length(2);
    });

    it('when 429 carries Retry-After: 1, then the retry waits at least one second and then succeeds', async () => {
      const s = await stub((_req, res, n) =>
        n === 1 ? json(res, 429, { error: 'Too many requests, please slow down' }, { 'retry-after': '1' }) : json(res, 200, VOTE),
      );
      const started = performance.now();
      const call = clientOf(s, { maxRetryDelayMs: 8_000 }).votes.get('a');
      // The wait itself is computed by retryDelay (checked with a clock passed in, below); here, that
      // the transport waits it: at least (a lower bound, which a busy machine only lengthens), and
      // not for some longer wait (a timer well past it fires second).
      expect(await settlesBefore(5_000, call), 'answered before a wait far longer than Retry-After').to.equal(true);
      const elapsed = performance.now() - started;
      expect(await call).to.deep.equal(VOTE);
      expect(s.requests).to.have.length(2);
      expect(elapsed).to.be.at.least(1_000 - 20);
    });

    it('when 503 carries Retry-After as an HTTP date two seconds ahead, then the retry waits until about then', async () => {
      const s = await stub((_req, res, n) =>
        n === 1 ? json(res, 503, { error: 'down' }, { 'retry-after': new Date(Date.now() + 2_000).toUTCString() }) : json(res, 200, VOTE),
      );
      const started = performance.now();
      const call = clientOf(s, { maxRetryDelayMs: 8_000 }).votes.get('a');
      // An HTTP date has whole seconds, so the wait is between 1 and 2 seconds (parseRetryAfter, below).
      expect(await settlesBefore(6_000, call), 'answered before a wait far longer than the date').to.equal(true);
      expect(performance.now() - started).to.be.at.least(1_000 - 20);
      expect(s.requests).to.have.length(2);
    });

    it('when 429 asks to wait longer than maxRetryDelayMs, then RateLimitError is thrown at once with retryAfter, without a retry', async () => {
      const s = await stub((_req, res) => json(res, 429, { error: 'Too many requests, please slow down' }, { 'retry-after': '30' }));
      const call = rejection(clientOf(s, { maxRetries: 2, maxRetryDelayMs: 8_000 }).feedback.list());
      expect(await settlesBefore(5_000, call), 'at once, not after a wait').to.equal(true);
      const error = await call;
      expect(error).to.be.instanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfter).to.equal(30);
      expect((error as Error).message).to.equal('Too many requests, please slow down');
      expect(s.requests).to.have.length(1);
    });

    it('when 429 and 5xx come without Retry-After, then the waits back off exponentially with jitter and are capped by maxRetryDelayMs', async () => {
      const failing = (n: number, res: ServerResponse) => (n <= 2 ? json(res, n === 1 ? 429 : 503, { error: 'busy' }) : json(res, 200, VOTE));
      const s = await stub((_req, res, n) => failing(n, res));
      let started = performance.now();
      await clientOf(s, { maxRetryDelayMs: 8_000 }).votes.get('a');
      // Equal jitter: the first wait is 150-300 ms, the second 300-600 ms (backoffDelay, below, with
      // the random draw passed in); the transport waits them: at least their least.
      expect(performance.now() - started).to.be.at.least(450 - 20);
      expect(s.requests).to.have.length(3);

      // Capped at 40 ms, five waits are 20-40 ms each: the call is over long before the uncapped
      // waits' least (150 + 300 + 600 + 1,200 + 2,400 ms) is.
      const capped = await stub((_req, res, n) => (n <= 5 ? json(res, 503, { error: 'busy' }) : json(res, 200, VOTE)));
      started = performance.now();
      const call = clientOf(capped, { maxRetries: 5, maxRetryDelayMs: 40 }).votes.get('a');
      expect(await settlesBefore(4_000, call), 'over before the uncapped waits would be').to.equal(true);
      expect(performance.now() - started).to.be.at.least(5 * 20 - 10);
      expect(capped.requests).to.have.length(6);
    });

    it('when the server never answers, then TimeoutError (a ConnectionError) comes after timeoutMs on each of 1 + maxRetries attempts', async () => {
      const s = await stub(() => {
        // Never answer.
      });
      const started = performance.now();
      const call = rejection(clientOf(s, { timeoutMs: 200, maxRetries: 2, maxRetryDelayMs: 20 }).votes.toggle('a'));
      expect(await settlesBefore(5_000, call), 'over well before a wait of the 5 s default').to.equal(true);
      const error = await call;
      const elapsed = performance.now() - started;
      expect(error).to.be.instanceOf(TimeoutError);
      expect(error).to.be.instanceOf(ConnectionError);
      expect((error as Error).message).to.match(/^votes\.toggle \(POST \/api\/v1\/feedback\/:id\/vote\), attempt 3 of 3: timed out after 200 ms$/);
      expect(s.requests).to.have.length(3);
      expect(new Set(s.requests.map((r) => r.headers['idempotency-key'])).size).to.equal(1);
      expect(elapsed).to.be.at.least(3 * 200 - 20);
    });

    it('when a per-call timeoutMs is given, then it overrides the client option', async () => {
      const s = await stub(() => {});
      const call = rejection(clientOf(s, { timeoutMs: 5_000, maxRetries: 0 }).feedback.list({}, { timeoutMs: 100 }));
      expect(await settlesBefore(2_500, call), 'timed out well before the client\'s 5 s').to.equal(true);
      expect(await call).to.be.instanceOf(TimeoutError);
    });

    it('when the socket is destroyed on every attempt, then ConnectionError (not a timeout) with a cause is thrown after the retries', async () => {
      const s = await stub((req) => req.socket.destroy());
      const error = await rejection(clientOf(s, { maxRetries: 2 }).feedback.create({ title: 't' }));
      expect(error).to.be.instanceOf(ConnectionError);
      expect(error).to.not.be.instanceOf(TimeoutError);
      expect((error as Error).cause).to.be.instanceOf(Error);
      expect((error as Error).message).to.match(/^feedback\.create \(POST \/api\/v1\/feedback\), attempt 3 of 3: connection failed: /);
      expect(s.requests).to.have.length(3);
    });

    it('when the socket is destroyed on the first two attempts, then the third succeeds with the same Idempotency-Key', async () => {
      const s = await stub((req, res, n) => (n <= 2 ? req.socket.destroy() : json(res, 200, VOTE)));
      expect(await clientOf(s).votes.toggle('a')).to.deep.equal(VOTE);
      expect(s.requests).to.have.length(3);
      expect(new Set(s.requests.map((r) => r.headers['idempotency-key'])).size).to.equal(1);
    });

    it('when nothing listens on the port, then ConnectionError is thrown with the ECONNREFUSED cause', async () => {
      const s = await stub(() => {});
      const url = s.url;
      await s.close();
      const error = await rejection(clientOf({ url }, { maxRetries: 1 }).feedback.list());
      expect(error).to.be.instanceOf(ConnectionError);
      expect(((error as Error).cause as { code?: string }).code).to.equal('ECONNREFUSED');
    });

    it('when the signal aborts during a retry wait, then the call rejects with FeedbackError "request aborted" and makes no more requests', async () => {
      const s = await stub((_req, res) => json(res, 503, { error: 'busy' }, { 'retry-after': '5' }));
      const controller = new AbortController();
      const call = clientOf(s, { maxRetryDelayMs: 8_000 }).feedback.list({}, { signal: controller.signal });
      // Aborted once the first answer is in, so the call is in its 5 s retry wait.
      await until(() => s.requests.length === 1, 10_000, 'the first attempt');
      controller.abort();
      const outcome = rejection(call);
      expect(await settlesBefore(2_500, outcome), 'ended at the abort, not after the 5 s wait').to.equal(true);
      const error = await outcome;
      expect(error).to.be.instanceOf(FeedbackError);
      expect(error).to.not.be.instanceOf(ConnectionError);
      expect((error as Error).message).to.equal('request aborted');
      expect(s.requests).to.have.length(1);
    });

    it('when the signal aborts while the server is silent, then the call rejects with "request aborted", not a TimeoutError, and is not retried', async () => {
      const s = await stub(() => {});
      const controller = new AbortController();
      const call = rejection(clientOf(s).votes.get('a', {}, { signal: controller.signal }));
      // Aborted once the request is in and unanswered (a timer of 100 ms could fire before it
      // arrives on a busy machine, and then nothing was sent).
      await until(() => s.requests.length === 1, 10_000, 'the request to arrive');
      controller.abort();
      const error = await call;
      expect(error).to.be.instanceOf(FeedbackError);
      expect(error).to.not.be.instanceOf(ConnectionError);
      expect((error as Error).message).to.equal('request aborted');
      expect(s.requests).to.have.length(1);
    });
  });

  describe('listAll', () => {
    it('when pages are iterated, then each page is fetched only when reached and iteration stops at totalPages', async () => {
      const s = await stub((req, res) => {
        const query = new URL(req.url!, 'http://x').searchParams;
        json(res, 200, page(Number(query.get('page')), Number(query.get('limit')), 7));
      });
      const iterator = clientOf(s).feedback.listAll({ type: ['bug', 'idea'], limit: 3 });
      expect(s.requests).to.have.length(0);
      const first = await iterator.next();
      expect(first.value).to.include({ id: 'item-1' });
      expect(s.requests).to.have.length(1);
      const ids = [first.value!.id];
      for await (const item of iterator) ids.push(item.id);
      expect(ids).to.deep.equal(['item-1', 'item-2', 'item-3', 'item-4', 'item-5', 'item-6', 'item-7']);
      expect(s.requests.map((r) => r.url)).to.deep.equal([1, 2, 3].map((n) => `/api/v1/feedback?type=bug,idea&page=${n}&limit=3`));
    });

    it('when the loop breaks early, then no further page is fetched', async () => {
      const s = await stub((req, res) => json(res, 200, page(Number(new URL(req.url!, 'http://x').searchParams.get('page')), 2, 10)));
      for await (const item of clientOf(s).feedback.listAll({ limit: 2 })) {
        if (item.id === 'item-1') break;
      }
      expect(s.requests).to.have.length(1);
    });

    it('when no limit is given, then pages of 100 are asked for; an empty page ends the iteration even if totalPages says more', async () => {
      const s = await stub((_req, res, n) => json(res, 200, n === 1 ? { ...page(1, 100, 100), totalPages: 5 } : { items: [], total: 500, page: n, limit: 100, totalPages: 5 }));
      let count = 0;
      for await (const _item of clientOf(s).feedback.listAll()) count++;
      expect(count).to.equal(100);
      expect(s.requests.map((r) => r.url)).to.deep.equal(['/api/v1/feedback?page=1&limit=100', '/api/v1/feedback?page=2&limit=100']);
    });

    it('when an item shifts onto the next page between requests, then it is yielded only once', async () => {
      const s = await stub((_req, res, n) => {
        const items = n === 1 ? ['a', 'b'] : ['b', 'c'];
        json(res, 200, { items: items.map((id) => ({ ...ITEM, id })), total: 4, page: n, limit: 2, totalPages: 2 });
      });
      const ids: string[] = [];
      for await (const item of clientOf(s).feedback.listAll({ limit: 2 })) ids.push(item.id);
      expect(ids).to.deep.equal(['a', 'b', 'c']);
    });

    it('when a page fails, then the iteration rejects with that error', async () => {
      const s = await stub((_req, res, n) => (n === 1 ? json(res, 200, page(1, 1, 3)) : json(res, 401, { error: 'Invalid API key' })));
      const ids: string[] = [];
      const error = await rejection(
        (async () => {
          for await (const item of clientOf(s).feedback.listAll({ limit: 1 })) ids.push(item.id);
        })(),
      );
      expect(ids).to.deep.equal(['item-1']);
      expect(error).to.be.instanceOf(AuthenticationError);
    });
  });

  describe('close', () => {
    it('when requests reuse the keep-alive pool and the client is closed, then the server has no connection left', async () => {
      const s = await stub((_req, res) => json(res, 200, VOTE));
      const client = clientOf(s);
      await Promise.all([client.votes.get('a'), client.votes.get('b'), client.votes.get('c')]);
      for (let i = 0; i < 5; i++) await client.votes.get('d');
      const open = await s.connections();
      expect(open).to.be.within(1, 3);
      // 8 requests over at most 3 sockets: the connections were reused.
      expect(s.requests).to.have.length(8);
      await client.close();
      await until(async () => (await s.connections()) === 0, 5_000, 'every connection to close');
    });

    it('when the client is closed, then later calls reject with FeedbackError "client is closed" without a request, and close() again is harmless', async () => {
      const s = await stub((_req, res) => json(res, 200, VOTE));
      const client = clientOf(s);
      await client.close();
      await client.close();
      for (const call of [() => client.votes.get('a'), () => client.votes.toggle('a'), () => client.feedback.list()]) {
        const error = await rejection(call());
        expect(error).to.be.instanceOf(FeedbackError);
        expect((error as Error).message).to.equal('client is closed');
      }
      expect(s.requests).to.have.length(0);
    });

    it('when the client is closed while a call waits to retry, then the call rejects with "client is closed" at once', async () => {
      const s = await stub((_req, res) => json(res, 503, { error: 'busy' }, { 'retry-after': '5' }));
      const client = clientOf(s, { maxRetryDelayMs: 8_000 });
      const call = rejection(client.feedback.list());
      // Closed once the first answer is in, so the call is in its 5 s retry wait.
      await until(() => s.requests.length === 1, 10_000, 'the first attempt');
      await client.close();
      expect(await settlesBefore(2_500, call), 'ended at the close, not after the 5 s wait').to.equal(true);
      const error = await call;
      expect((error as Error).message).to.equal('client is closed');
      expect(s.requests).to.have.length(1);
    });
  });
});

// The waits the transport sleeps, as computed, with the clock and the random draw passed in: exact,
// where the stub tests above can only say that the transport waits at least that long.
describe('SDK retry waits, with a clock and a random draw passed in', () => {
  it('when Retry-After is delay-seconds, an HTTP date or unreadable, then the wait is its milliseconds, the time to that date (0 when past), or none', () => {
    const now = Date.parse('2026-10-21T07:28:00Z');
    expect(parseRetryAfter('1', now)).to.equal(1_000);
    expect(parseRetryAfter('0.5', now)).to.equal(500);
    expect(parseRetryAfter(new Date(now + 2_000).toUTCString(), now)).to.equal(2_000);
    expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).to.equal(0);
    for (const bad of ['-1', '1e3', 'soon']) expect(parseRetryAfter(bad, now), bad).to.equal(undefined);
    expect(parseRetryAfter(undefined, now)).to.equal(undefined);
  });

  it('when no Retry-After is given, then the waits back off exponentially with equal jitter and are capped by maxRetryDelayMs', () => {
    expect(RETRY_BASE_DELAY_MS).to.equal(300);
    const least = () => 0;
    const most = () => 1;
    expect([0, 1, 2].map((retry) => backoffDelay(retry, 8_000, least))).to.deep.equal([150, 300, 600]);
    expect([0, 1, 2].map((retry) => backoffDelay(retry, 8_000, most))).to.deep.equal([300, 600, 1_200]);
    expect(backoffDelay(10, 8_000, most), 'capped').to.equal(8_000);
    expect([0, 1, 4].map((retry) => [backoffDelay(retry, 40, least), backoffDelay(retry, 40, most)])).to.deep.equal([[20, 40], [20, 40], [20, 40]]);
  });

  it('when Retry-After is within maxRetryDelayMs, then it is the wait; longer, then there is no retry', () => {
    expect(retryDelay(0, 1_000, 8_000)).to.equal(1_000);
    expect(retryDelay(3, 8_000, 8_000)).to.equal(8_000);
    expect(retryDelay(0, 30_000, 8_000)).to.equal(undefined);
    expect(retryDelay(0, undefined, 8_000)).to.be.within(150, 300);
  });
});
