import { expect } from 'chai';
import { backends, embeddedBackend, type FreshDatabase } from '../helpers/backends.js';
import { startServe, type ServeProcess } from '../helpers/cli-process.js';
import { redisServerInstalled, startRedis, type RedisProcess } from '../helpers/redis-process.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

const RATE_LIMITED = { error: 'Too many requests, please slow down' };

const postgres = backends().find((backend) => backend.name === 'postgres');
const sharedRedisUrl = process.env.TEST_REDIS_URL;

describe('Rate limit across instances: two `feedback serve` on one PostgreSQL and one Redis', function () {
  let database: FreshDatabase;
  let instances: ServeProcess[] = [];
  let key: string;

  before(async function () {
    // .ci/run sets both; without them there is no shared PostgreSQL and Redis to run two instances on.
    if (!postgres || !sharedRedisUrl) return this.skip();
    database = await postgres.create();
    const common = ['--database-url', database.location.databaseUrl!, '--redis-url', sharedRedisUrl];
    // The first instance migrates and prints the first key; the second joins as operators deploy it.
    const first = await startServe([...common, '--workers', '2']);
    instances.push(first);
    await until(() => /pk_/.test(first.stdout()), 30_000, 'the first key');
    key = /(pk_[0-9A-Za-z]+)/.exec(first.stdout())![1]!;
    instances.push(await startServe([...common, '--workers', '1', '--no-migrate']));
  });
  after(async () => {
    for (const instance of instances) if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((instance) => instance.exited));
    instances = [];
    await database?.drop();
  });

  it('8 rate limit: when 300 concurrent requests of one key are spread over both instances, then exactly 100 pass and 200 get the spec 429 with Retry-After', async () => {
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => fetch(`${instances[i % 2]!.url}/api/v1/feedback?limit=1`, { headers: { 'x-api-key': key } })),
    );
    const bodies = await Promise.all(responses.map((res) => res.json()));
    expect(responses.filter((res) => res.status === 200)).to.have.length(100);
    const refused = responses.map((res, i) => ({ res, body: bodies[i] })).filter(({ res }) => res.status === 429);
    expect(refused).to.have.length(200);
    for (const { res, body } of refused) {
      expect(body).to.deep.equal(RATE_LIMITED);
      expect(Number(res.headers.get('retry-after'))).to.be.within(1, 60);
    }
    for (const instance of instances) expect(instance.stderr()).to.include('"rateLimitStore":"redis://');
  });
});

describe('Rate limit while Redis is down or slow (a Redis the test starts and stops itself)', function () {
  const LIMIT = 3;
  let redis: RedisProcess;
  let server: TestServer;

  before(async function () {
    // The machine's redis-server is what the test starts and stops; without it there is nothing to stop.
    if (!redisServerInstalled()) return this.skip();
    redis = await startRedis();
    server = await startTestServer(embeddedBackend, { rateLimit: LIMIT, redisUrl: redis.url });
  });
  after(async () => {
    redis?.thaw();
    await server?.close();
    await redis?.kill();
  });

  /** LIMIT + 2 requests of a fresh key, one after another; their statuses. */
  const burst = async (): Promise<number[]> => {
    const key = await server.newKey();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await fetch(`${server.url}/api/v1/feedback?limit=1`, { headers: { 'x-api-key': key } });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    return statuses;
  };
  const logged = (text: string) => server.logs.filter((line) => line.includes(text));
  const limitedAsExpected = [200, 200, 200, 429, 429];

  it('when Redis answers, then the limit is counted there', async () => {
    expect(await burst()).to.deep.equal(limitedAsExpected);
    expect(logged('rate-limit store unreachable')).to.have.length(0);
  });

  it('when Redis is killed, then requests are still served under the per-process fallback limit and the outage is logged once', async () => {
    await redis.kill();
    expect(await burst()).to.deep.equal(limitedAsExpected);
    expect(await burst()).to.deep.equal(limitedAsExpected);
    expect(logged('WARN rate-limit store unreachable')).to.have.length(1);
  });

  it('when Redis comes back, then the limit is counted there again and the recovery is logged', async () => {
    await redis.start();
    // ioredis reconnects in the background (at most 2 s apart); the next probe then succeeds.
    await until(async () => {
      await burst();
      return logged('rate-limit store reachable again').length > 0;
    }, 15_000, 'the recovery line');
    expect(logged('INFO rate-limit store reachable again')).to.have.length(1);
    expect(await burst()).to.deep.equal(limitedAsExpected);
  });

  it('when Redis hangs (stopped, connections open), then requests are answered from the fallback instead of waiting, and logged once more', async () => {
    redis.freeze();
    const statuses = [...(await burst()), ...(await burst())];
    expect(statuses.filter((status) => status >= 500)).to.deep.equal([]);
    expect(statuses).to.deep.equal([...limitedAsExpected, ...limitedAsExpected]);
    expect(logged('WARN rate-limit store unreachable')).to.have.length(2);
    redis.thaw();
  });
});
