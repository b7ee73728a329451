import { expect } from 'chai';
import { createApiKey, listApiKeys, revokeApiKey, ApiKeyNotFoundError } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

for (const backend of backends()) {
  describe(`API keys (${backend.name})`, () => {
    const server = withServer(backend);

    it('when a key is minted, then it is pk_ followed by at least 32 base62 characters, and keys differ', async () => {
      const a = await server.newKey();
      const b = await server.newKey();
      expect(a).to.match(/^pk_[0-9A-Za-z]{32,}$/);
      expect(a).not.to.equal(b);
    });

    it('when a key is stored, then only its SHA-256 hash is in the database', async () => {
      const { key } = await createApiKey(server.server.orm.em.fork(), { name: 'hash check' });
      const rows: Record<string, unknown>[] = await server.server.orm.em.fork().getConnection().execute('select * from api_keys');
      const dump = JSON.stringify(rows);
      expect(dump).not.to.include(key);
      const { createHash } = await import('node:crypto');
      expect(rows.map((row) => row.key_hash)).to.include(createHash('sha256').update(key).digest('hex'));
    });

    it('when a key is listed, then the listing shows its prefix and never the key', async () => {
      const { key, summary } = await createApiKey(server.server.orm.em.fork(), { name: 'listed' });
      const listed = await listApiKeys(server.server.orm.em.fork());
      const row = listed.find((k) => k.id === summary.id);
      expect(row).to.include({ name: 'listed', project: 'default', revokedAt: null });
      expect(key.startsWith(row!.prefix)).to.equal(true);
      expect(JSON.stringify(listed)).not.to.include(key);
    });

    it('when a key is revoked by id, then after the key cache bound (KEY_CACHE_TTL_MS) requests with it get 401 "Invalid API key"', async () => {
      const { key, summary } = await createApiKey(server.server.orm.em.fork());
      expect((await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'r' }, apiKey: key })).status).to.equal(200);
      const revoked = await revokeApiKey(server.server.orm.em.fork(), summary.id);
      expect(revoked.revokedAt).to.be.a('string');
      // The wait is the subject: the cache's bound, after which the revocation must be seen.
      await server.keyChangesSeen();
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'r' }, apiKey: key });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ error: 'Invalid API key' });
    });

    it('key cache: when a key in constant use is revoked, then it is refused no later than KEY_CACHE_TTL_MS after the revocation, and refused from then on', async () => {
      const { key } = await createApiKey(server.server.orm.em.fork());
      const call = () => request(server, 'GET', '/api/v1/feedback?limit=1', { apiKey: key });
      expect((await call()).status, 'the key works and is now cached').to.equal(200);
      await revokeApiKey(server.server.orm.em.fork(), key);
      // The bound under test, as a timer from the revocation (not a measured time, which a busy
      // machine stretches): the key stays in use, one request after another, until it fires or the
      // key is refused (no further: each refusal counts towards the failed-authentication limit).
      let over = false;
      const bound = server.keyChangesSeen().then(() => (over = true));
      const statuses: number[] = [];
      while (!over && statuses.at(-1) !== 401) statuses.push((await call()).status);
      await bound;
      expect(statuses.length, 'requests while the bound ran').to.be.greaterThan(0);
      expect(statuses.filter((status) => status !== 200 && status !== 401), 'answers other than the key\'s two').to.deep.equal([]);
      for (let i = 0; i < 5; i++) expect((await call()).status, 'once the bound is past').to.equal(401);
    });

    it('when a key is revoked by the key itself, then it is refused like an unknown one', async () => {
      const { key } = await createApiKey(server.server.orm.em.fork());
      await revokeApiKey(server.server.orm.em.fork(), key);
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'r' }, apiKey: key });
      expect(res.body).to.deep.equal({ error: 'Invalid API key' });
    });

    it('when an unknown key is revoked, then it fails with ApiKeyNotFoundError', async () => {
      let caught: unknown;
      await revokeApiKey(server.server.orm.em.fork(), '00000000-0000-0000-0000-000000000000').catch((error: unknown) => {
        caught = error;
      });
      expect(caught).to.be.instanceOf(ApiKeyNotFoundError);
    });
  });
}
