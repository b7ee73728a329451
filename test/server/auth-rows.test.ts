import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createApiKey, revokeApiKey } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { request, withServer, SHORT_KEY_CACHE_TTL_MS, type TestServer } from '../helpers/test-server.js';

type Call = { method: 'GET' | 'POST'; path: string; body?: unknown; ok: number };

/** The six endpoints of spec part 4; each call is built against a fresh item, with names unique to the call. */
const ENDPOINTS: { label: string; build(id: string, tag: string): Call }[] = [
  { label: 'POST /api/v1/identify', build: (_id, tag) => ({ method: 'POST', path: '/api/v1/identify', body: { externalId: `auth-${tag}` }, ok: 200 }) },
  { label: 'POST /api/v1/feedback', build: (_id, tag) => ({ method: 'POST', path: '/api/v1/feedback', body: { title: `auth-${tag}` }, ok: 201 }) },
  { label: 'GET /api/v1/feedback', build: () => ({ method: 'GET', path: '/api/v1/feedback', ok: 200 }) },
  { label: 'GET /api/v1/feedback/:id', build: (id) => ({ method: 'GET', path: `/api/v1/feedback/${id}`, ok: 200 }) },
  { label: 'POST /api/v1/feedback/:id/vote', build: (id, tag) => ({ method: 'POST', path: `/api/v1/feedback/${id}/vote`, body: { endUser: { externalId: `auth-${tag}` } }, ok: 200 }) },
  { label: 'GET /api/v1/feedback/:id/vote', build: (id) => ({ method: 'GET', path: `/api/v1/feedback/${id}/vote`, ok: 200 }) },
];

/** Rows of the tables a refused request must not touch. */
async function snapshot(server: TestServer): Promise<Record<string, number>> {
  const rows = await server.server.orm.em.fork().execute<{ feedback: number; votes: number; end_users: number; vote_total: number }[]>(
    `select (select count(*)::int from feedback) as feedback,
            (select count(*)::int from votes) as votes,
            (select count(*)::int from end_users) as end_users,
            (select coalesce(sum(vote_count), 0)::int from feedback_counters) as vote_total`,
  );
  return { ...rows[0]! };
}

for (const backend of backends()) {
  describe(`Authentication rows of spec part 5 on every endpoint (${backend.name})`, () => {
    const server = withServer(backend, { keyCacheTtlMs: SHORT_KEY_CACHE_TTL_MS });

    /** A fresh item (made with the valid key) and the endpoint's call against it. */
    async function prepare(build: (id: string, tag: string) => Call): Promise<Call> {
      const res = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Auth target', endUser: { externalId: `auth-owner-${randomUUID()}` } } });
      expect(res.status).to.equal(201);
      return build(res.body.feedback.id, randomUUID());
    }

    async function expectRefused(call: Call, apiKey: string | null, error: string): Promise<void> {
      const before = await snapshot(server);
      const res = await request(server, call.method, call.path, { apiKey, ...(call.body === undefined ? {} : { body: call.body }) });
      expect(res.status).to.equal(401);
      expect(res.headers.get('content-type')).to.match(/application\/json/);
      expect(res.body).to.deep.equal({ error });
      expect(await snapshot(server)).to.deep.equal(before);
    }

    for (const endpoint of ENDPOINTS) {
      it(`5 auth: when ${endpoint.label} is called with a valid key, then it is served (the control for the rows below)`, async () => {
        const call = await prepare(endpoint.build);
        const res = await request(server, call.method, call.path, call.body === undefined ? {} : { body: call.body });
        expect(res.status, JSON.stringify(res.body)).to.equal(call.ok);
      });

      it(`5 auth: when ${endpoint.label} is called without the x-api-key header, then it is a 401 "Missing x-api-key header" and nothing changes`, async () => {
        await expectRefused(await prepare(endpoint.build), null, 'Missing x-api-key header');
      });

      it(`5 auth: when ${endpoint.label} is called with an unknown key, then it is a 401 "Invalid API key" and nothing changes`, async () => {
        await expectRefused(await prepare(endpoint.build), `pk_${'Z'.repeat(40)}`, 'Invalid API key');
      });

      it(`5 auth: when ${endpoint.label} is called with a value that is not a key, then it is a 401 "Invalid API key"`, async () => {
        await expectRefused(await prepare(endpoint.build), 'not-a-key', 'Invalid API key');
      });

      it(`5 auth: when ${endpoint.label} is called with a revoked key, then it is a 401 "Invalid API key" and nothing changes`, async () => {
        const call = await prepare(endpoint.build);
        const { key } = await createApiKey(server.server.orm.em.fork(), { name: 'to revoke' });
        // Before revocation the key works (a GET, so the call under test still has its effect pending).
        expect((await request(server, 'GET', '/api/v1/feedback?limit=1', { apiKey: key })).status).to.equal(200);
        await revokeApiKey(server.server.orm.em.fork(), key);
        // Keys are cached in the server for at most its key cache's time to live (50 ms here; keys.test.ts tests the 1 s of production).
        await server.keyChangesSeen();
        await expectRefused(call, key, 'Invalid API key');
      });
    }
  });
}
