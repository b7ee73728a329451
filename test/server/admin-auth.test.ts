import { expect } from 'chai';
import { createApiKey, listApiKeys, revokeApiKey } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { request, startTestServer, withServer } from '../helpers/test-server.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const FORBIDDEN = { error: 'This operation requires a secret key' };

/**
 * Secret keys (issue 9 §2): an `sk_` key may call every endpoint; a public key calling an
 * operator endpoint gets 403, after the 401 of an unknown key and before any input is read.
 */
for (const backend of backends()) {
  describe(`secret keys and the 403 of operator endpoints (${backend.name})`, () => {
    const server = withServer(backend);
    let secret: { url: string; apiKey: string };
    let itemId: string;
    before(async () => {
      secret = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
      itemId = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'An item' } })).body.feedback.id;
    });

    /** Every operator endpoint with a valid body, and one with an invalid body, for the same item. */
    const operations = () => [
      { method: 'PATCH', path: `/api/v1/feedback/${itemId}`, body: { status: 'planned' }, invalid: { status: 'nope' } },
      { method: 'DELETE', path: `/api/v1/feedback/${itemId}` },
      // Comments are open to public keys since issue 39 (an end user's comment, test/server/comments.test.ts); the history of one is the team's.
      { method: 'GET', path: `/api/v1/feedback/${itemId}/comments/${UNKNOWN_ID}/history` },
      { method: 'POST', path: `/api/v1/feedback/${itemId}/merge`, body: { intoId: UNKNOWN_ID }, invalid: {} },
    ];

    it('when a secret key is minted, then it is sk_ with 40 base62 characters, stored as secret, listed by its sk_ prefix', async () => {
      const { key, summary } = await createApiKey(server.server.orm.em.fork(), { kind: 'secret', name: 'ops' });
      expect(key).to.match(/^sk_[0-9A-Za-z]{40}$/);
      expect(summary).to.include({ kind: 'secret', prefix: key.slice(0, 9), name: 'ops' });
      const listed = (await listApiKeys(server.server.orm.em.fork())).find((row) => row.id === summary.id);
      expect(listed).to.include({ kind: 'secret', prefix: key.slice(0, 9) });
      const [row] = await server.server.orm.em.fork().execute<{ key_hash: string }[]>('select key_hash from api_keys where id = ?', [summary.id]);
      expect(row!.key_hash).to.match(/^[0-9a-f]{64}$/).and.not.include(key.slice(3));
    });

    it('when a public key calls any operator endpoint, valid input or not, then 403 "This operation requires a secret key" and nothing changes', async () => {
      for (const op of operations()) {
        for (const body of [op.body, op.invalid]) {
          const res = await request(server, op.method, op.path, body === undefined ? {} : { body });
          expect(res.status, `${op.method} ${op.path}`).to.equal(403);
          expect(res.body).to.deep.equal(FORBIDDEN);
        }
      }
      // Also for an unknown item: the key is refused before anything is looked up.
      expect((await request(server, 'DELETE', `/api/v1/feedback/${UNKNOWN_ID}`)).status).to.equal(403);
      const detail = await request(server, 'GET', `/api/v1/feedback/${itemId}`);
      expect(detail.body.feedback).to.include({ status: 'new', commentCount: 0 });
    });

    it('when an unknown or revoked sk_ key calls an operator endpoint, then it is the spec 401, not a 403', async () => {
      const unknown = await request(server, 'PATCH', `/api/v1/feedback/${itemId}`, { body: { status: 'planned' }, apiKey: `sk_${'A'.repeat(40)}` });
      expect(unknown.status).to.equal(401);
      expect(unknown.body).to.deep.equal({ error: 'Invalid API key' });
      const missing = await request(server, 'DELETE', `/api/v1/feedback/${itemId}`, { apiKey: null });
      expect(missing.body).to.deep.equal({ error: 'Missing x-api-key header' });
      const revoked = await server.newKey(undefined, 'secret');
      // Revoked before its first use, so no process has it cached.
      await revokeApiKey(server.server.orm.em.fork(), revoked);
      expect((await request(server, 'PATCH', `/api/v1/feedback/${itemId}`, { body: { status: 'planned' }, apiKey: revoked })).status).to.equal(401);
    });

    it('when a secret key calls the six spec endpoints, then each answers as for a public key', async () => {
      const identify = await request(secret, 'POST', '/api/v1/identify', { body: { externalId: 'secret-user', name: 'Sam' } });
      expect(identify.status).to.equal(200);
      const created = await request(secret, 'POST', '/api/v1/feedback', { body: { title: 'Sent with a secret key', endUser: { externalId: 'secret-user' } } });
      expect(created.status).to.equal(201);
      const id = created.body.feedback.id;
      expect((await request(secret, 'GET', '/api/v1/feedback?search=secret%20key')).body.total).to.equal(1);
      expect((await request(secret, 'POST', `/api/v1/feedback/${id}/vote`, { body: {} })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await request(secret, 'GET', `/api/v1/feedback/${id}/vote?endUserId=secret-user`)).body).to.deep.equal({ voted: true, voteCount: 2 });
      const detail = await request(secret, 'GET', `/api/v1/feedback/${id}?endUserId=secret-user`);
      expect(detail.body.feedback).to.include({ userHasVoted: true, voteCount: 2 });
    });

    it('when a public key reads an item with a status history, then the answer has exactly the spec fields; a secret key sees the same plus statusHistory, last', async () => {
      const id = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'History hidden from public keys' } })).body.feedback.id;
      expect((await request(secret, 'PATCH', `/api/v1/feedback/${id}`, { body: { status: 'planned', actor: 'Ada' } })).status).to.equal(200);
      const publicText = await (await fetch(`${server.url}/api/v1/feedback/${id}`, { headers: { 'x-api-key': server.apiKey } })).text();
      const secretText = await (await fetch(`${server.url}/api/v1/feedback/${id}`, { headers: { 'x-api-key': secret.apiKey } })).text();
      expect(Object.keys(JSON.parse(publicText).feedback)).to.deep.equal([
        'id', 'title', 'description', 'type', 'status', 'voteCount', 'commentCount', 'createdAt', 'endUser', 'userHasVoted', 'comments',
      ]);
      // The secret key's answer is the public one, byte for byte, with one more field at the end.
      expect(secretText.startsWith(`${publicText.slice(0, -2)},"statusHistory":[`), secretText).to.equal(true);
      const history = JSON.parse(secretText).feedback.statusHistory;
      expect(history).to.have.length(1);
      expect(history[0]).to.include({ from: 'new', to: 'planned', actor: 'Ada', keyPrefix: secret.apiKey.slice(0, 9) });
    });

    it('when secret keys make requests, then they spend the rate limit like public keys, and 403s count too', async () => {
      const limited = await startTestServer(backend, { rateLimit: 3 });
      try {
        const key = await limited.newKey(undefined, 'secret');
        const asSecret = { url: limited.url, apiKey: key };
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await request(asSecret, 'DELETE', `/api/v1/feedback/${UNKNOWN_ID}`)).status);
        expect(statuses).to.deep.equal([404, 404, 404, 429]);
        const publicStatuses = [];
        for (let i = 0; i < 4; i++) publicStatuses.push((await request(limited, 'DELETE', `/api/v1/feedback/${UNKNOWN_ID}`)).status);
        expect(publicStatuses).to.deep.equal([403, 403, 403, 429]);
      } finally {
        await limited.close();
      }
    });
  });
}
