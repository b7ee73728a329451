import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { createApiKey, createApp, createLogger, DEFAULT_RATE_LIMIT, revokeApiKey, startServer, type Logger } from '@feedbackd/server';
import { silentLogger } from '@feedbackd/server/testing';
import { embeddedBackend } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

// The limit lives in memory, not in the database, so the embedded backend alone covers it.
const LIMIT = 5;
const POLICY = `"default";q=${LIMIT};w=60`;
const RATE_LIMITED = { error: 'Too many requests, please slow down' };

/** Serves a Koa app on port 0 (for apps built with createApp directly). */
async function listenApp(app: ReturnType<typeof createApp>): Promise<{ url: string; close(): Promise<void> }> {
  const http: Server = createServer(app.callback());
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/** The RateLimit header's remaining and reset values. */
function parseRateLimit(value: string | null): { r: number; t: number } {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(value ?? '');
  expect(match, `RateLimit header ${value}`).to.not.equal(null);
  return { r: Number(match![1]), t: Number(match![2]) };
}

/** The six API endpoints, against item `id`; `tag` makes the written names unique. */
function endpoints(id: string, tag: string) {
  return [
    { label: 'POST /api/v1/identify', method: 'POST', path: '/api/v1/identify', body: { externalId: `rl-identify-${tag}` } },
    { label: 'POST /api/v1/feedback', method: 'POST', path: '/api/v1/feedback', body: { title: `rl-submit-${tag}` } },
    { label: 'GET /api/v1/feedback', method: 'GET', path: '/api/v1/feedback' },
    { label: 'GET /api/v1/feedback/:id', method: 'GET', path: `/api/v1/feedback/${id}` },
    { label: 'POST /api/v1/feedback/:id/vote', method: 'POST', path: `/api/v1/feedback/${id}/vote`, body: { endUser: { externalId: `rl-voter-${tag}` } } },
    { label: 'GET /api/v1/feedback/:id/vote', method: 'GET', path: `/api/v1/feedback/${id}/vote` },
  ] as const;
}

describe(`Rate limit, ${LIMIT} per minute per key (${embeddedBackend.name})`, () => {
  const server = withServer(embeddedBackend, { rateLimit: LIMIT });

  /** A fresh key (a fresh budget) of the default project. */
  async function freshCaller(): Promise<{ url: string; apiKey: string }> {
    return { url: server.url, apiKey: await server.newKey() };
  }

  /** An item made with a key of its own, so the caller's budget is untouched. */
  async function makeItem(): Promise<string> {
    const res = await request(await freshCaller(), 'POST', '/api/v1/feedback', { body: { title: 'Rate limit target', endUser: { externalId: `rl-owner-${randomUUID()}` } } });
    expect(res.status).to.equal(201);
    return res.body.feedback.id;
  }

  it('8 rate limit: when a key makes requests on each endpoint, then every response carries the policy and the remaining budget, falling by one each time', async () => {
    const id = await makeItem();
    const caller = await freshCaller();
    const calls = endpoints(id, randomUUID()).slice(0, LIMIT);
    for (const [i, call] of calls.entries()) {
      const before = Math.floor(Date.now() / 1000);
      const res = await request(caller, call.method, call.path, 'body' in call ? { body: call.body } : {});
      expect(res.status, call.label).to.be.oneOf([200, 201]);
      expect(res.headers.get('ratelimit-policy'), call.label).to.equal(POLICY);
      expect(res.headers.get('x-ratelimit-limit'), call.label).to.equal(String(LIMIT));
      const remaining = LIMIT - 1 - i;
      expect(res.headers.get('x-ratelimit-remaining'), call.label).to.equal(String(remaining));
      const { r, t } = parseRateLimit(res.headers.get('ratelimit'));
      expect(r, call.label).to.equal(remaining);
      expect(t, call.label).to.be.within(1, 60);
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(Number.isInteger(reset), `X-RateLimit-Reset ${res.headers.get('x-ratelimit-reset')}`).to.equal(true);
      expect(reset, call.label).to.be.within(before, Math.ceil(Date.now() / 1000) + 60);
      expect(reset, call.label).to.be.greaterThan(Date.now() / 1000 - 1);
    }
  });

  it('8 rate limit: when the budget is spent, then the next request is a 429 "Too many requests, please slow down" with Retry-After and remaining 0', async () => {
    const caller = await freshCaller();
    for (let i = 0; i < LIMIT; i++) expect((await request(caller, 'GET', '/api/v1/feedback')).status).to.equal(200);
    const res = await request(caller, 'GET', '/api/v1/feedback');
    expect(res.status).to.equal(429);
    expect(res.body).to.deep.equal(RATE_LIMITED);
    expect(res.headers.get('content-type')).to.match(/application\/json/);
    const retryAfter = res.headers.get('retry-after');
    expect(retryAfter).to.match(/^\d+$/);
    expect(Number(retryAfter)).to.be.within(1, 60);
    expect(res.headers.get('x-ratelimit-remaining')).to.equal('0');
    expect(parseRateLimit(res.headers.get('ratelimit')).r).to.equal(0);
    expect(parseRateLimit(res.headers.get('ratelimit')).t).to.equal(Number(retryAfter));
    expect(res.headers.get('ratelimit-policy')).to.equal(POLICY);
    expect(Number(res.headers.get('x-ratelimit-reset'))).to.be.within(Math.floor(Date.now() / 1000), Math.ceil(Date.now() / 1000) + 60);
    // It stays limited.
    expect((await request(caller, 'GET', '/api/v1/feedback')).status).to.equal(429);
  });

  it('8 rate limit: when the budget is spent, then every endpoint answers 429 and none of the writes happen', async () => {
    const id = await makeItem();
    const tag = randomUUID();
    const caller = await freshCaller();
    for (let i = 0; i < LIMIT; i++) expect((await request(caller, 'GET', '/api/v1/feedback')).status).to.equal(200);
    for (const call of endpoints(id, tag)) {
      const res = await request(caller, call.method, call.path, 'body' in call ? { body: call.body } : {});
      expect(res.status, call.label).to.equal(429);
      expect(res.body, call.label).to.deep.equal(RATE_LIMITED);
      expect(res.headers.get('retry-after'), call.label).to.match(/^\d+$/);
    }
    // Checked with another key: no item, no user, no vote was created by the refused requests.
    const observer = await freshCaller();
    const list = await request(observer, 'GET', `/api/v1/feedback?search=${encodeURIComponent(`rl-submit-${tag}`)}`);
    expect(list.body.total).to.equal(0);
    expect((await request(observer, 'GET', `/api/v1/feedback/${id}`)).body.feedback.voteCount).to.equal(1);
    const em = server.server.orm.em.fork();
    const users = await em.execute<{ n: number }[]>('select count(*)::int as n from end_users where external_id in (?, ?)', [`rl-identify-${tag}`, `rl-voter-${tag}`]);
    expect(users[0]!.n).to.equal(0);
  });

  it('8 rate limit: when one key has spent its budget, then a second key of the same project still has its full budget', async () => {
    const first = await freshCaller();
    const second = await freshCaller();
    for (let i = 0; i < LIMIT; i++) await request(first, 'GET', '/api/v1/feedback');
    expect((await request(first, 'GET', '/api/v1/feedback')).status).to.equal(429);
    const res = await request(second, 'GET', '/api/v1/feedback');
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-ratelimit-remaining')).to.equal(String(LIMIT - 1));
    for (let i = 1; i < LIMIT; i++) expect((await request(second, 'GET', '/api/v1/feedback')).status).to.equal(200);
    expect((await request(second, 'GET', '/api/v1/feedback')).status).to.equal(429);
    // The first key is still limited.
    expect((await request(first, 'GET', '/api/v1/feedback')).status).to.equal(429);
  });

  it('8 rate limit: when many requests come without a key, with an invalid key or with a revoked key, then all are 401 (never 429) and a valid key keeps its full budget', async () => {
    const { key: revoked } = await createApiKey(server.server.orm.em.fork());
    await revokeApiKey(server.server.orm.em.fork(), revoked);
    const bad: (string | null)[] = [null, `pk_${'A'.repeat(40)}`, 'nonsense', revoked];
    const statuses: number[] = [];
    for (let i = 0; i < 6 * LIMIT; i++) {
      const res = await request({ url: server.url, apiKey: '' }, 'GET', '/api/v1/feedback', { apiKey: bad[i % bad.length]! });
      statuses.push(res.status);
      expect(res.headers.get('ratelimit-policy')).to.equal(POLICY);
    }
    expect(statuses.filter((s) => s !== 401)).to.deep.equal([]);

    const caller = await freshCaller();
    const res = await request(caller, 'GET', '/api/v1/feedback');
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-ratelimit-remaining')).to.equal(String(LIMIT - 1));
  });

  it('8 rate limit: when a keyed request fails validation or names an unknown item, then it still counts and still carries the headers', async () => {
    const caller = await freshCaller();
    const invalid = await request(caller, 'POST', '/api/v1/feedback', { body: {} });
    expect(invalid.status).to.equal(400);
    expect(invalid.headers.get('x-ratelimit-remaining')).to.equal(String(LIMIT - 1));
    const missing = await request(caller, 'GET', `/api/v1/feedback/${randomUUID()}`);
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('x-ratelimit-remaining')).to.equal(String(LIMIT - 2));
    expect(missing.headers.get('ratelimit-policy')).to.equal(POLICY);
  });

  it('8 rate limit: when /healthz is called many times, with or without a key, then it is never limited, has no rate-limit headers and spends no budget', async () => {
    const caller = await freshCaller();
    for (let i = 0; i < 3 * LIMIT; i++) {
      const res = await request(caller, 'GET', '/healthz', i % 2 === 0 ? { apiKey: null } : {});
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'ok' });
      for (const header of ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']) {
        expect(res.headers.get(header), header).to.equal(null);
      }
    }
    const api = await request(caller, 'GET', '/api/v1/feedback');
    expect(api.headers.get('x-ratelimit-remaining')).to.equal(String(LIMIT - 1));
  });

  it('8 rate limit: when concurrent requests exceed the budget, then exactly the budget is served and the rest are 429', async () => {
    const caller = await freshCaller();
    const results = await Promise.all(Array.from({ length: 3 * LIMIT }, () => request(caller, 'GET', '/api/v1/feedback')));
    expect(results.filter((r) => r.status === 200)).to.have.length(LIMIT);
    expect(results.filter((r) => r.status === 429)).to.have.length(2 * LIMIT);
  });

  it('8 rate limit: when an app is built with DEFAULT_RATE_LIMIT, then the limit is 100 per minute: 100 requests pass and the 101st is a 429', async () => {
    expect(DEFAULT_RATE_LIMIT).to.equal(100);
    const app = createApp({ sql: server.server.sql, voterSecret: randomBytes(32), logger: silentLogger, rateLimit: { points: DEFAULT_RATE_LIMIT } });
    const listening = await listenApp(app);
    try {
      const caller = { url: listening.url, apiKey: await server.newKey() };
      const first = await request(caller, 'GET', '/api/v1/feedback?limit=1');
      expect(first.status).to.equal(200);
      expect(first.headers.get('ratelimit-policy')).to.equal('"default";q=100;w=60');
      expect(first.headers.get('x-ratelimit-limit')).to.equal('100');
      expect(first.headers.get('x-ratelimit-remaining')).to.equal('99');
      const rest = await Promise.all(Array.from({ length: 99 }, () => request(caller, 'GET', '/api/v1/feedback?limit=1')));
      expect(rest.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
      const over = await request(caller, 'GET', '/api/v1/feedback?limit=1');
      expect(over.status).to.equal(429);
      expect(over.body).to.deep.equal(RATE_LIMITED);
    } finally {
      await listening.close();
    }
  });

  it("8 rate limit: when an app is built with rateLimit 'off' (limited elsewhere), then no request is refused and no response carries rate-limit headers", async () => {
    const app = createApp({ sql: server.server.sql, voterSecret: randomBytes(32), logger: silentLogger, rateLimit: 'off' });
    const listening = await listenApp(app);
    try {
      const caller = { url: listening.url, apiKey: await server.newKey() };
      const results = await Promise.all(Array.from({ length: 3 * LIMIT }, () => request(caller, 'GET', '/api/v1/feedback?limit=1')));
      expect(results.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
      for (const res of results) {
        for (const header of ['ratelimit-policy', 'ratelimit', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          expect(res.headers.get(header), header).to.equal(null);
        }
      }
      // Authentication still applies.
      expect((await request(caller, 'GET', '/api/v1/feedback', { apiKey: null })).status).to.equal(401);
    } finally {
      await listening.close();
    }
  });

  it('8 rate limit: when the limiter store fails, then the request is served normally (not a 500) and a warning is logged', async () => {
    class FailingLimiter extends RateLimiterMemory {
      override consume(): Promise<RateLimiterRes> {
        return Promise.reject(new Error('store down'));
      }
    }
    const lines: string[] = [];
    const logger: Logger = createLogger({ level: 'debug', write: (line) => lines.push(line) });
    const app = createApp({ sql: server.server.sql, voterSecret: randomBytes(32), logger, rateLimit: { points: LIMIT, limiter: new FailingLimiter({ points: LIMIT, duration: 60 }) } });
    const listening = await listenApp(app);
    try {
      const caller = { url: listening.url, apiKey: await server.newKey() };
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 2; i++) statuses.push((await request(caller, 'GET', '/api/v1/feedback?limit=1')).status);
      expect(statuses).to.deep.equal(Array(LIMIT + 2).fill(200));
      const created = await request(caller, 'POST', '/api/v1/feedback', { body: { title: 'Served without a limiter' } });
      expect(created.status).to.equal(201);
      expect(created.body.feedback.title).to.equal('Served without a limiter');
      const entries = lines.map((line) => JSON.parse(line) as { level: string; msg: string; error?: string });
      const warnings = entries.filter((entry) => entry.level === 'warn' && entry.msg.includes('rate limiter') && entry.error === 'store down');
      expect(warnings).to.have.length(LIMIT + 3);
      expect(entries.filter((entry) => entry.level === 'error')).to.deep.equal([]);
    } finally {
      await listening.close();
    }
  });
});

describe(`Rate limit default of startServer (${embeddedBackend.name})`, () => {
  it('8 rate limit: when startServer is given no rateLimit, then the policy is 100 requests per 60 seconds', async () => {
    const database = await embeddedBackend.createMigrated();
    let key: string | undefined;
    const running = await startServer({
      ...database.location,
      port: 0,
      host: '127.0.0.1',
      logger: silentLogger,
      onFirstKey: (k) => {
        key = k;
      },
    });
    try {
      const res = await request({ url: running.url, apiKey: key! }, 'GET', '/api/v1/feedback');
      expect(res.status).to.equal(200);
      expect(res.headers.get('ratelimit-policy')).to.equal('"default";q=100;w=60');
      expect(res.headers.get('x-ratelimit-limit')).to.equal('100');
      expect(res.headers.get('x-ratelimit-remaining')).to.equal('99');
    } finally {
      await running.close();
      await database.drop();
    }
  });
});
