import { expect } from 'chai';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';
import { postgresBinaries, startThrowawayPostgres, throwawayBackend, type ThrowawayPostgres } from '../helpers/throwaway-postgres.js';
import { until } from '../helpers/until.js';

const UNAVAILABLE = { error: 'Service unavailable' };
/** The bound: an API call during an outage is answered within 2 s, never left hanging. */
const ANSWER_WITHIN_MS = 2_000;

describe('Database outage: PostgreSQL stopped under a running server, then started again', function () {
  let postgres: ThrowawayPostgres;
  let server: TestServer;
  let itemId: string;

  before(async function () {
    const bin = postgresBinaries();
    // The machine's PostgreSQL server programs make the throwaway instance; without them there is nothing to stop.
    if (!bin) return this.skip();
    postgres = await startThrowawayPostgres(bin);
    server = await startTestServer(throwawayBackend(postgres));
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Written before the outage' } });
    expect(created.status).to.equal(201);
    itemId = created.body.feedback.id;
  });
  after(async () => {
    await server?.close().catch(() => {});
    await postgres?.destroy();
  });

  /** A call that must be answered within the bound: an abort past it fails the test as a hang. */
  const timed = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { 'x-api-key': server.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
  };

  it('when PostgreSQL is down, then every endpoint answers 503 Service unavailable at once and /healthz says the database is down', async () => {
    await postgres.stop();
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/v1/feedback'],
      ['GET', `/api/v1/feedback/${itemId}`],
      ['POST', '/api/v1/feedback', { title: 'Written during the outage' }],
      ['POST', `/api/v1/feedback/${itemId}/vote`, { endUser: { externalId: 'u1' } }],
      ['GET', `/api/v1/feedback/${itemId}/vote`],
      ['POST', '/api/v1/identify', { externalId: 'u1' }],
    ];
    // Twice over: the first round meets the pool's dead connections, the second a refused connect.
    for (let round = 0; round < 2; round++) {
      for (const [method, path, body] of calls) {
        const res = await timed(method, path, body);
        expect(res.status, `${method} ${path}`).to.equal(503);
        expect(res.body, `${method} ${path}`).to.deep.equal(UNAVAILABLE);
        expect(res.headers.get('retry-after')).to.equal('1');
      }
    }
    const health = await timed('GET', '/healthz');
    expect(health.status).to.equal(503);
    expect(health.body).to.deep.equal({ error: 'Database unavailable' });
    expect(server.logs.filter((line) => line.startsWith('WARN database unreachable'))).to.have.length(1);
    expect(server.logs.filter((line) => line.startsWith('ERROR'))).to.deep.equal([]);
  });

  it('when PostgreSQL is back, then the server serves again by itself, with the data from before and nothing from the outage', async () => {
    await postgres.start();
    await until(async () => (await request(server, 'GET', '/healthz')).status === 200, 15_000, 'the health check to pass again');
    const list = await request(server, 'GET', '/api/v1/feedback');
    expect(list.status).to.equal(200);
    expect(list.body.items.map((item: { title: string }) => item.title)).to.deep.equal(['Written before the outage']);
    const vote = await request(server, 'POST', `/api/v1/feedback/${itemId}/vote`, { body: { endUser: { externalId: 'u1' } } });
    expect(vote.body).to.deep.equal({ voted: true, voteCount: 2 });
  });
});
