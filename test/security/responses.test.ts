import { expect } from 'chai';
import { Agent, request as httpRequest } from 'node:http';
import { embeddedBackend } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

/** Words that would betray the stack, the database or the framework in a response. */
const LEAKS = /\bat \w+ \(|node_modules|\.ts:\d|\.js:\d|SELECT |INSERT |syntax error|relation "|koa|express|pglite|postgres|mikro/i;

describe('Responses: nosniff everywhere, nothing leaked', () => {
  const server = withServer(embeddedBackend, { rateLimit: 1_000 });
  let id: string;
  before(async () => {
    id = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Header check' } })).body.feedback.id;
  });

  it('when any endpoint answers, with success or any error, then X-Content-Type-Options is nosniff, no framework banner is sent, and no body leaks internals', async () => {
    const cases: { method: string; path: string; options?: Parameters<typeof request>[3]; status: number }[] = [
      { method: 'GET', path: '/healthz', status: 200 },
      { method: 'GET', path: '/api/v1/feedback', status: 200 },
      { method: 'GET', path: `/api/v1/feedback/${id}`, status: 200 },
      { method: 'POST', path: '/api/v1/feedback', options: { body: { title: 'x' } }, status: 201 },
      { method: 'POST', path: `/api/v1/feedback/${id}/vote`, options: { body: {} }, status: 200 },
      { method: 'GET', path: `/api/v1/feedback/${id}/vote`, status: 200 },
      { method: 'POST', path: '/api/v1/identify', options: { body: { externalId: 'u' } }, status: 200 },
      { method: 'GET', path: '/api/v1/feedback', options: { apiKey: null }, status: 401 },
      { method: 'GET', path: '/api/v1/feedback/not-an-id', status: 404 },
      { method: 'GET', path: '/nowhere', status: 404 },
      { method: 'DELETE', path: '/api/v1/feedback', status: 405 },
      { method: 'GET', path: '/api/v1/feedback?limit=0', status: 400 },
      { method: 'POST', path: '/api/v1/feedback', options: { rawBody: '{"title":', headers: { 'content-type': 'application/json' } }, status: 400 },
      { method: 'POST', path: '/api/v1/feedback', options: { rawBody: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, status: 415 },
      { method: 'POST', path: '/api/v1/feedback', options: { body: { title: 'a\u0000b' } }, status: 400 },
    ];
    for (const { method, path, options, status } of cases) {
      const res = await request(server, method, path, options);
      const label = `${method} ${path} -> ${res.status}`;
      expect(res.status, label).to.equal(status);
      expect(res.headers.get('x-content-type-options'), label).to.equal('nosniff');
      expect(res.headers.get('x-powered-by'), label).to.equal(null);
      expect(res.headers.get('server'), label).to.equal(null);
      expect(res.headers.get('content-type'), label).to.match(/^application\/json/);
      if (status >= 400) {
        expect(Object.keys(res.body).sort(), label).to.satisfy((keys: string[]) => keys.every((key) => key === 'error' || key === 'details'));
        expect(JSON.stringify(res.body), label).not.to.match(LEAKS);
      }
    }
  });
});

describe('Connections after a body refused half-way', () => {
  const server = withServer(embeddedBackend);

  it('regression (ECONNRESET found by the hostile-input suite): when a large body fails to decompress, then the 400 closes the connection and the next request of the same client is answered', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { port } = new URL(server.url);
    const post = (headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; connection: string | undefined; text: string }>((resolve, reject) => {
        const req = httpRequest({ agent, host: '127.0.0.1', port, method: 'POST', path: '/api/v1/feedback', headers: { 'x-api-key': server.apiKey, ...headers } }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const refused = await post({ 'content-type': 'application/json', 'content-encoding': 'br' }, `{"title":"${'x'.repeat(500_000)}"}`);
      expect(refused.status).to.equal(400);
      expect(JSON.parse(refused.text).details.formErrors).to.deep.equal(['The request body does not decompress as its Content-Encoding says']);
      expect(refused.connection).to.equal('close');
      const next = await post({ 'content-type': 'application/json' }, '{"title":"after"}');
      expect(next.status).to.equal(201);
    } finally {
      agent.destroy();
    }
  });
});

describe('Failed authentication is limited per client IP', () => {
  // Behind one trusted proxy, so the test can speak from several addresses.
  const server = withServer(embeddedBackend, { trustProxy: 1 });

  const from = (ip: string, apiKey: string | null) => request(server, 'GET', '/api/v1/feedback?limit=1', { apiKey, headers: { 'x-forwarded-for': ip } });

  it('when one address sends 30 unknown keys, then the next request from it gets a 429 with the lock-out text and Retry-After, even with a valid key', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await from('203.0.113.7', `pk_${'x'.repeat(39)}${i % 10}`);
      expect(res.status, `guess ${i + 1}`).to.equal(401);
    }
    const blocked = await from('203.0.113.7', `pk_${'y'.repeat(40)}`);
    expect(blocked.status).to.equal(429);
    // Issue 24: its own text, so that it is not taken for the key's rate limit.
    expect(blocked.body).to.deep.equal({ error: 'Too many failed authentication attempts from this address; try again later' });
    expect(Number(blocked.headers.get('retry-after'))).to.be.within(1, 60);
    const valid = await from('203.0.113.7', server.apiKey);
    expect(valid.status).to.equal(429);
  });

  it('when another address sends keys, then it is not affected by the first one', async () => {
    expect((await from('198.51.100.4', `pk_${'z'.repeat(40)}`)).status).to.equal(401);
    expect((await from('198.51.100.4', server.apiKey)).status).to.equal(200);
  });

  it('when requests come without any key, then they are 401 and do not count as guesses', async () => {
    for (let i = 0; i < 40; i++) expect((await from('192.0.2.9', null)).status).to.equal(401);
    expect((await from('192.0.2.9', server.apiKey)).status).to.equal(200);
  });
});
