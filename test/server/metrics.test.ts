import { expect } from 'chai';
import { createApiKey, startServer, type RunningServer } from '@feedbackd/server';
import { silentLogger } from '@feedbackd/server/testing';
import { backends, type FreshDatabase } from '../helpers/backends.js';
import { hasPromtool, labelValues, promtoolCheck, sampleSum, scrape } from '../helpers/metrics-text.js';

const RATE_LIMIT = 5;
const FAILED_AUTH_LIMIT = 3;

for (const backend of backends()) {
  describe(`metrics on their own listener (${backend.name})`, () => {
    let database: FreshDatabase;
    let server: RunningServer;
    let metricsUrl: string;
    const newKey = async () => (await createApiKey(server.orm.em.fork(), { name: 'metrics' })).key;
    const get = (path: string, key?: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers: key ? { ...headers, 'x-api-key': key } : headers });

    before(async () => {
      // Migrated already (a copy of the run's template): these tests are about the metrics, not the migrations.
      database = await backend.createMigrated();
      server = await startServer({
        ...database.location,
        port: 0,
        host: '127.0.0.1',
        metricsPort: 0,
        rateLimit: RATE_LIMIT,
        failedAuthLimit: FAILED_AUTH_LIMIT,
        // The failed-key lock-out is tested from an address of its own (X-Forwarded-For), so the other tests' address stays free.
        trustProxy: 1,
        logger: silentLogger,
      });
      metricsUrl = server.metricsUrl!;
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });

    it('when the server starts with a metrics port, then the metrics listen on a port of their own, on the same host', () => {
      expect(metricsUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(new URL(metricsUrl).port).to.not.equal(String(server.port));
    });

    it('when requests arrive, then the request counter and the latency histogram grow by exactly them, labelled by method, route template and status', async () => {
      const key = await newKey();
      const created = (await (await fetch(`${server.url}/api/v1/feedback`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Counted' }),
      }).then((res) => res.json())) as { feedback: { id: string } });
      const before = await scrape(metricsUrl);
      const detail = { method: 'GET', route: '/api/v1/feedback/:id', status: '200' };
      const missing = { method: 'GET', route: '/api/v1/feedback/:id', status: '404' };
      expect((await get(`/api/v1/feedback/${created.feedback.id}`, key)).status).to.equal(200);
      expect((await get(`/api/v1/feedback/${created.feedback.id}`, key)).status).to.equal(200);
      expect((await get('/api/v1/feedback/00000000-0000-4000-8000-000000000000', key)).status).to.equal(404);
      expect((await get('/healthz')).status).to.equal(200);
      const after = await scrape(metricsUrl);
      const grew = (name: string, labels: Record<string, string>) => sampleSum(after, name, labels) - sampleSum(before, name, labels);
      expect(grew('feedback_http_requests_total', detail)).to.equal(2);
      expect(grew('feedback_http_requests_total', missing)).to.equal(1);
      expect(grew('feedback_http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).to.equal(1);
      expect(grew('feedback_http_request_duration_seconds_count', detail)).to.equal(2);
      expect(grew('feedback_http_request_duration_seconds_bucket', { ...detail, le: '+Inf' })).to.equal(2);
      expect(grew('feedback_http_request_duration_seconds_sum', detail)).to.be.greaterThan(0);
    });

    it('when a path matches no route, then it is counted under one "unmatched" route, never under its raw path', async () => {
      const key = await newKey();
      const before = await scrape(metricsUrl);
      for (const path of ['/no/such/path-1', '/no/such/path-2', '/api/v1/nothing-here']) expect((await get(path, key)).status).to.equal(404);
      const after = await scrape(metricsUrl);
      const labels = { method: 'GET', route: 'unmatched', status: '404' };
      expect(sampleSum(after, 'feedback_http_requests_total', labels) - sampleSum(before, 'feedback_http_requests_total', labels)).to.equal(3);
      for (const route of labelValues(after, 'feedback_http_requests_total', 'route')) expect(route).to.not.match(/no\/such|nothing-here|[0-9a-f]{8}-/);
    });

    it('when a key spends its budget, an address sends unknown keys and another posts past its board budget, then each limit counts its refusals', async () => {
      const key = await newKey();
      const before = await scrape(metricsUrl);
      const statuses = [];
      for (let i = 0; i < RATE_LIMIT + 2; i++) statuses.push((await get('/api/v1/feedback?limit=1', key)).status);
      expect(statuses.filter((status) => status === 429)).to.have.length(2);
      const guesser = { 'x-forwarded-for': '203.0.113.7' };
      for (let i = 0; i < FAILED_AUTH_LIMIT; i++) expect((await get('/api/v1/feedback', `pk_unknown${i}`, guesser)).status).to.equal(401);
      expect((await get('/api/v1/feedback', key, guesser)).status).to.equal(429);
      // The board's posts spend an address's budget of their own (an empty title: refused, but spent).
      const boardPost = () =>
        fetch(`${server.url}/b/default/new`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.8' }, body: 'title=' });
      const posts = [];
      for (let i = 0; i < RATE_LIMIT + 1; i++) posts.push((await boardPost()).status);
      expect(posts.filter((status) => status === 429)).to.have.length(1);
      const after = await scrape(metricsUrl);
      const grew = (limit: string) => sampleSum(after, 'feedback_rate_limit_refusals_total', { limit }) - sampleSum(before, 'feedback_rate_limit_refusals_total', { limit });
      expect(grew('key')).to.equal(2);
      expect(grew('failed_auth')).to.equal(1);
      expect(grew('board')).to.equal(1);
    });

    it('when votes are toggled, then the batch queue figures count them, and the pool and process figures are there', async () => {
      const key = await newKey();
      const created = (await (await fetch(`${server.url}/api/v1/feedback`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Voted on' }),
      }).then((res) => res.json())) as { feedback: { id: string } });
      const before = await scrape(metricsUrl);
      const vote = () => fetch(`${server.url}/api/v1/feedback/${created.feedback.id}/vote`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ endUser: { externalId: 'metrics-voter' } }) });
      expect((await vote()).status).to.equal(200);
      const after = await scrape(metricsUrl);
      expect(sampleSum(after, 'feedback_batch_requests_total', { batch: 'vote' }) - sampleSum(before, 'feedback_batch_requests_total', { batch: 'vote' })).to.be.at.least(1);
      expect(sampleSum(after, 'feedback_batch_statements_total', { batch: 'vote' })).to.be.at.least(1);
      expect(sampleSum(after, 'feedback_db_pool_max_connections')).to.be.at.least(2);
      expect(sampleSum(after, 'feedback_db_pool_connections')).to.be.at.least(1);
      expect(sampleSum(after, 'feedback_serving_processes')).to.equal(1);
      expect(sampleSum(after, 'process_resident_memory_bytes')).to.be.greaterThan(0);
      expect(after).to.match(/^nodejs_eventloop_lag_p99_seconds /m);
    });

    it('when /metrics is asked of the API port, then it is not there, and the metrics port answers nothing but /metrics', async () => {
      const key = await newKey();
      const onApi = await get('/metrics', key);
      expect(onApi.status).to.equal(404);
      expect(await onApi.text()).to.not.include('feedback_http_requests_total');
      const elsewhere = await fetch(`${metricsUrl}/api/v1/feedback`);
      expect(elsewhere.status).to.equal(404);
      await elsewhere.text();
    });

    it('when /metrics is asked of the API port without a key (issue 37), then it is the JSON 404 of an unknown path for every method, never a 401', async () => {
      for (const method of ['GET', 'HEAD', 'POST', 'DELETE']) {
        const res = await fetch(`${server.url}/metrics`, { method });
        expect(res.status, method).to.equal(404);
        expect(res.headers.get('content-type'), method).to.match(/^application\/json/);
        const text = await res.text();
        if (method === 'HEAD') continue;
        expect(JSON.parse(text), method).to.deep.equal({ error: `Not found: ${method} /metrics` });
      }
      // Only that path: its neighbours are API paths like any other, asked for a key.
      expect((await fetch(`${server.url}/metrics/`)).status).to.equal(401);
      // And the metrics port still serves them, to GET and HEAD only.
      expect(await scrape(metricsUrl)).to.include('feedback_http_requests_total');
      expect((await fetch(`${metricsUrl}/metrics`, { method: 'POST' })).status).to.equal(404);
    });

    it('when a URL over 16 KB reaches the metrics port (issue 37), then the answer is the same JSON 431 as on the API port, not an empty one', async () => {
      for (const url of [`${metricsUrl}/metrics?x=${'a'.repeat(17_000)}`, `${server.url}/api/v1/feedback?search=${'a'.repeat(17_000)}`]) {
        const res = await fetch(url);
        expect(res.status, url.slice(0, 40)).to.equal(431);
        expect(res.headers.get('content-type')).to.match(/^application\/json/);
        expect(await res.json()).to.deep.equal({ error: 'Request header fields too large' });
      }
    });

    it('when promtool is installed, then `promtool check metrics` finds nothing to fix in the scrape', async function () {
      if (!hasPromtool()) this.skip();
      await get('/api/v1/feedback', await newKey());
      const { code, output } = await promtoolCheck(await scrape(metricsUrl));
      expect(output).to.equal('');
      expect(code).to.equal(0);
    });
  });
}
