import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '@feedbackd/server';
import { FailedAuthLimit, silentLogger } from '@feedbackd/server/testing';
import { oneBackend, type FreshDatabase } from '../helpers/backends.js';
import { parseLogLine, runFeedback, startServe, type ServeProcess } from '../helpers/cli-process.js';
import { request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

describe('FailedAuthLimit: the per-address count of failed authentications', () => {
  it('when an address reaches the limit, then it is blocked until its window ends, and others are not', () => {
    const limit = new FailedAuthLimit(2, 1_000);
    limit.record('a', 0);
    expect(limit.blockedFor('a', 10)).to.equal(0);
    limit.record('a', 10);
    expect(limit.blockedFor('a', 10)).to.equal(990);
    expect(limit.blockedFor('b', 10)).to.equal(0);
    expect(limit.blockedFor('a', 1_000)).to.equal(0);
  });

  it('when every window has ended, then nothing is tracked any more (requests stop paying for the check)', async () => {
    const limit = new FailedAuthLimit(2, 30);
    expect(limit.tracking).to.equal(false);
    limit.record('a');
    expect(limit.tracking).to.equal(true);
    // Its 30 ms window ends by the clock: tracking ends with it, with no call to the limit meanwhile.
    await until(() => !limit.tracking, 5_000, 'the window to end');
    expect(limit.blockedFor('a')).to.equal(0);
  });

  it('when failures are recorded, then only the one that reaches the limit says so (the lock-out is logged once)', () => {
    const limit = new FailedAuthLimit(2, 1_000);
    expect([limit.record('a', 0), limit.record('a', 1), limit.record('a', 2)]).to.deep.equal([false, true, false]);
  });
});

/** The lock-out's own answer: still a 429, but not the rate limit's text. */
const LOCKED_OUT = { error: 'Too many failed authentication attempts from this address; try again later' };
/** The per-key rate limit's headers, which say nothing true about an address's lock-out. */
const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const LOCK_OUT_LOG = 'failed-auth limit reached: refusing every request from this address until its window ends';

/** A well-formed key that no database holds. */
const unknownKey = (i: number) => `pk_${'q'.repeat(36)}${String(i).padStart(4, '0')}`;

/** An app on port 0 of this process, called with `apiKey` unless a request names another. */
async function listen(app: ReturnType<typeof createApp>, apiKey: string): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const http = createServer(app.callback());
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    apiKey,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

function expectLockedOut(res: { status: number; headers: Headers; body: unknown }, label: string): void {
  expect(res.status, label).to.equal(429);
  expect(res.body, label).to.deep.equal(LOCKED_OUT);
  expect(Number(res.headers.get('retry-after')), label).to.be.within(1, 60);
  for (const header of RATE_LIMIT_HEADERS) expect(res.headers.get(header), `${label}: ${header}`).to.equal(null);
}

// The limit counts refusals before any statement of the request runs: one backend (oneBackend).
const backend = oneBackend();

describe(`the failed-key limit of a server (${backend.name})`, () => {
  // Behind one trusted proxy, so the test can speak from several addresses; a limit of 3.
  const server = withServer(backend, { trustProxy: 1, failedAuthLimit: 3 });

  const from = (target: { url: string; apiKey: string }, ip: string, apiKey: string) =>
    request(target, 'GET', '/api/v1/feedback?limit=1', { apiKey, headers: { 'x-forwarded-for': ip } });

  it('when an address sends as many unknown keys as the limit, then its next requests, a valid key included, get 429 with the lock-out text and Retry-After, without rate-limit headers', async () => {
    for (let i = 0; i < 3; i++) expect((await from(server, '203.0.113.10', unknownKey(i))).status, `guess ${i + 1}`).to.equal(401);
    expectLockedOut(await from(server, '203.0.113.10', unknownKey(3)), 'an unknown key');
    const valid = await from(server, '203.0.113.10', server.apiKey);
    expectLockedOut(valid, 'a valid key');
    expect(valid.headers.get('x-request-id'), 'still a request of ours').to.be.a('string');
    expect((await from(server, '198.51.100.10', server.apiKey)).status, 'another address').to.equal(200);
  });

  it('when the key of a request is over its rate limit instead, then the 429 keeps the spec text and the rate-limit headers (the two are told apart)', async () => {
    const limited = await listen(createApp({ sql: server.server.sql, voterSecret: randomBytes(32), logger: silentLogger, rateLimit: { points: 1 } }), server.apiKey);
    try {
      expect((await request(limited, 'GET', '/api/v1/feedback?limit=1')).status).to.equal(200);
      const over = await request(limited, 'GET', '/api/v1/feedback?limit=1');
      expect(over.status).to.equal(429);
      expect(over.body).to.deep.equal({ error: 'Too many requests, please slow down' });
      expect(over.headers.get('x-ratelimit-limit')).to.equal('1');
    } finally {
      await limited.close();
    }
  });

  it('when an address is locked out, then one warn line names the address and why, and no log line holds a key', async () => {
    const ip = '203.0.113.20';
    const keys = [0, 1, 2, 3, 4].map((i) => unknownKey(100 + i));
    for (const key of keys) await from(server, ip, key);
    await from(server, ip, server.apiKey);
    const lines = server.logs.filter((line) => line.startsWith(`WARN ${LOCK_OUT_LOG} `) && line.includes(`"ip":"${ip}"`));
    expect(lines, server.logs.join('\n')).to.have.length(1);
    const fields = JSON.parse(lines[0]!.slice(`WARN ${LOCK_OUT_LOG} `.length)) as Record<string, unknown>;
    expect(fields).to.include({ ip, reason: '3 unknown or revoked API keys within 60 s' });
    expect(fields.retryAfter).to.be.within(1, 60);
    expect(fields.id).to.be.a('string');
    for (const key of [...keys, server.apiKey]) expect(server.logs.join('\n')).not.to.include(key.slice(3));
  });

  it('when the limit is off, then an address may send any number of unknown keys and is never locked out, nor logged', async () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const open = await listen(createApp({ sql: server.server.sql, voterSecret: randomBytes(32), logger, rateLimit: 'off', trustProxy: 1, failedAuthLimit: 'off' }), server.apiKey);
    try {
      for (let i = 0; i < 40; i++) expect((await from(open, '203.0.113.30', unknownKey(200 + i))).status, `guess ${i + 1}`).to.equal(401);
      expect((await from(open, '203.0.113.30', server.apiKey)).status).to.equal(200);
      expect(warnings).to.deep.equal([]);
    } finally {
      await open.close();
    }
  });
});

describe(`feedback serve --failed-auth-limit (${backend.name})`, () => {
  let database: FreshDatabase;
  let serve: ServeProcess;
  before(async () => {
    database = await backend.createMigrated();
    const where = database.location.databaseUrl ? ['--database-url', database.location.databaseUrl] : ['--data-dir', database.location.dataDir];
    // Two workers: the limit must reach the workers' apps through their configuration.
    serve = await startServe(['--workers', '2', '--failed-auth-limit', '2', ...where]);
  });
  after(async () => {
    if (serve && serve.child.exitCode === null) serve.child.kill('SIGKILL');
    await serve?.exited;
    await database?.drop();
  });

  const logLines = () => serve.stderr().split('\n').map(parseLogLine).filter((entry) => entry !== undefined);

  it('when the server runs with --failed-auth-limit 2 and 2 workers, then the listening line says so and an address is locked out after at most 2 unknown keys per worker, with a warn line', async () => {
    expect(logLines().find((entry) => entry.msg === 'listening')).to.include({ failedAuthLimit: 2, workers: 2 });
    const statuses: number[] = [];
    let lockedOut: Response | undefined;
    // Each worker counts alone: 2 workers give an address at most 2 × 2 tries.
    for (let i = 0; i < 6 && !lockedOut; i++) {
      const res = await fetch(`${serve.url}/api/v1/feedback`, { headers: { 'x-api-key': unknownKey(300 + i) } });
      statuses.push(res.status);
      if (res.status === 429) lockedOut = res;
      else await res.arrayBuffer();
    }
    expect(statuses.slice(0, 2)).to.deep.equal([401, 401]);
    expect(lockedOut, `statuses: ${statuses.join(', ')}`).to.not.equal(undefined);
    expectLockedOut({ status: lockedOut!.status, headers: lockedOut!.headers, body: await lockedOut!.json() }, 'locked out');
    // A worker's log lines reach stderr when its buffer is flushed (at least every 250 ms): wait for the line, up to 3 s.
    const warnings = () => logLines().filter((entry) => entry.msg === LOCK_OUT_LOG);
    await until(() => warnings().length > 0, 5_000, 'the lock-out line');
    expect(warnings().length).to.be.within(1, 2);
    expect(warnings()[0]).to.include({ level: 'warn', reason: '2 unknown or revoked API keys within 60 s' });
    expect(warnings()[0]!.ip).to.be.a('string');
    expect(serve.stderr()).not.to.include(unknownKey(300).slice(3));
  });
});

describe('feedback serve --failed-auth-limit: usage', () => {
  it('when the flag or FEEDBACK_FAILED_AUTH_LIMIT is not a whole number of at least 1 nor "off", then serve exits 2 before opening a database', async () => {
    const flag = await runFeedback(['serve', '--failed-auth-limit', '0', '--data-dir', '/nonexistent/feedback-test']);
    expect(flag.code, flag.stderr).to.equal(2);
    expect(flag.stderr).to.include('--failed-auth-limit must be a whole number of at least 1, or "off", not "0"');
    const env = await runFeedback(['serve', '--data-dir', '/nonexistent/feedback-test'], { FEEDBACK_FAILED_AUTH_LIMIT: 'lots' });
    expect(env.code, env.stderr).to.equal(2);
    expect(env.stderr).to.include('not "lots"');
  });

  it('when serve --help is asked, then it lists --failed-auth-limit with its variable and default', async () => {
    const help = await runFeedback(['serve', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).to.match(/--failed-auth-limit <n> .*"off".*\(default: "30", env: FEEDBACK_FAILED_AUTH_LIMIT\)/);
  });
});
