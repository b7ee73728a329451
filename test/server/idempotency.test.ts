import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

for (const backend of backends()) {
  describe(`Idempotency-Key on POST (${backend.name})`, () => {
    const server = withServer(backend);

    const submit = async (title: string) => (await request(server, 'POST', '/api/v1/feedback', { body: { title } })).body.feedback.id as string;
    const voteCount = async (id: string) => (await request(server, 'GET', `/api/v1/feedback/${id}/vote?endUserId=nobody`)).body.voteCount as number;
    const toggle = (id: string, key: string, externalId = 'idem-user', apiKey?: string) =>
      request(server, 'POST', `/api/v1/feedback/${id}/vote`, {
        body: { endUser: { externalId } },
        headers: { 'Idempotency-Key': key },
        ...(apiKey ? { apiKey } : {}),
      });

    it('when a toggle is repeated with the same key, then the stored response is replayed and the vote is counted once', async () => {
      const id = await submit('Replay a toggle');
      const first = await toggle(id, 'toggle-key-1');
      const again = await toggle(id, 'toggle-key-1');
      expect(first.status).to.equal(200);
      expect(first.body).to.deep.equal({ voted: true, voteCount: 2 });
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      expect(await voteCount(id)).to.equal(2);
    });

    it('when a toggle is sent again with a new key, then it toggles again', async () => {
      const id = await submit('New key, new toggle');
      await toggle(id, 'toggle-key-a');
      const second = await toggle(id, 'toggle-key-b');
      expect(second.body).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it('when a submission is repeated with the same key, then one item exists and the replay is the same 201', async () => {
      const title = 'Submitted once, sent twice';
      const send = () => request(server, 'POST', '/api/v1/feedback', { body: { title }, headers: { 'Idempotency-Key': 'submit-key-1' } });
      const first = await send();
      const again = await send();
      expect(first.status).to.equal(201);
      expect(again.status).to.equal(201);
      expect(again.body).to.deep.equal(first.body);
      const listed = await request(server, 'GET', `/api/v1/feedback?search=${encodeURIComponent(title)}`);
      expect(listed.body.total).to.equal(1);
    });

    it('when the same key comes with a different body, then it is a 400 and nothing is done', async () => {
      const id = await submit('Key reused with another body');
      await toggle(id, 'reused-key', 'user-a');
      const other = await toggle(id, 'reused-key', 'user-b');
      expect(other.status).to.equal(400);
      expect(other.body.error).to.equal('Invalid input');
      expect(other.body.details.formErrors[0]).to.match(/Idempotency-Key "reused-key" was already used with a different request/);
      expect(await voteCount(id)).to.equal(2);
    });

    it('when the same key comes to another path, then it is a 400', async () => {
      const id = await submit('Key reused on another path');
      await toggle(id, 'path-key');
      const other = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'idem-user' }, headers: { 'Idempotency-Key': 'path-key' } });
      expect(other.status).to.equal(400);
    });

    it('when the body differs only in key order, then it is the same request and is replayed', async () => {
      const send = (body: unknown) => request(server, 'POST', '/api/v1/identify', { body, headers: { 'Idempotency-Key': 'order-key' } });
      const first = await send({ externalId: 'ordered', name: 'Ada' });
      const again = await send({ name: 'Ada', externalId: 'ordered' });
      expect(again.status).to.equal(200);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
    });

    it('when another project uses the same key, then its request runs on its own', async () => {
      await server.server.orm.em
        .fork()
        .execute("insert into projects (slug, name, voter_salt) values ('idem-other', 'Other', 'salt-of-other') on conflict do nothing");
      const otherKey = await server.newKey('idem-other');
      const mine = await submit('Mine');
      const theirs = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Theirs' }, apiKey: otherKey })).body.feedback.id as string;
      const a = await toggle(mine, 'shared-key');
      const b = await toggle(theirs, 'shared-key', 'idem-user', otherKey);
      expect(a.body).to.deep.equal({ voted: true, voteCount: 2 });
      expect(b.status).to.equal(200);
      expect(b.headers.get('idempotent-replayed')).to.equal(null);
      expect(b.body).to.deep.equal({ voted: true, voteCount: 2 });
    });

    it('when the first request with a key fails, then the key is not kept and a retry runs again', async () => {
      const first = await request(server, 'POST', '/api/v1/feedback', { body: { title: '' }, headers: { 'Idempotency-Key': 'failed-key' } });
      expect(first.status).to.equal(400);
      const retry = await request(server, 'POST', '/api/v1/feedback', { body: { title: '' }, headers: { 'Idempotency-Key': 'failed-key' } });
      expect(retry.status).to.equal(400);
      expect(retry.headers.get('idempotent-replayed')).to.equal(null);
      const fixed = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Fixed' }, headers: { 'Idempotency-Key': 'failed-key' } });
      expect(fixed.status).to.equal(201);
    });

    it('when 10 requests with one key arrive at once, then the toggle happens once and all 10 get its response', async () => {
      const id = await submit('Concurrent retries');
      const results = await Promise.all(Array.from({ length: 10 }, () => toggle(id, 'concurrent-key')));
      for (const res of results) {
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ voted: true, voteCount: 2 });
      }
      expect(results.filter((res) => res.headers.get('idempotent-replayed') === 'true')).to.have.length(9);
      expect(await voteCount(id)).to.equal(2);
    });

    it('when a key is older than 24 hours, then it has expired and the request runs again', async () => {
      const id = await submit('Expired key');
      await toggle(id, 'old-key');
      await server.server.orm.em.fork().execute("update idempotency_keys set created_at = now() - interval '25 hours' where key = 'old-key'");
      const later = await toggle(id, 'old-key');
      expect(later.headers.get('idempotent-replayed')).to.equal(null);
      expect(later.body).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it('when the key is longer than 255 characters or has spaces, then it is a 400', async () => {
      const id = await submit('Bad keys');
      expect((await toggle(id, 'k'.repeat(256))).status).to.equal(400);
      expect((await toggle(id, 'has space')).status).to.equal(400);
      expect(await voteCount(id)).to.equal(1);
    });

    it('when a write is replayed, then the replay is the same bytes as the first answer', async () => {
      const send = async () => {
        const response = await fetch(`${server.url}/api/v1/identify`, {
          method: 'POST',
          headers: { 'x-api-key': server.apiKey, 'content-type': 'application/json', 'idempotency-key': 'bytes-key' },
          body: JSON.stringify({ externalId: 'byte-user', name: 'Bea', email: 'bea@example.com', metadata: { zeta: 1, alpha: 2 } }),
        });
        return { status: response.status, replayed: response.headers.get('idempotent-replayed'), text: await response.text() };
      };
      const first = await send();
      const again = await send();
      expect(first.status).to.equal(200);
      expect(again.replayed).to.equal('true');
      expect(again.status).to.equal(first.status);
      expect(again.text).to.equal(first.text);
    });

    it('when an operator write is retried with its key, then it takes effect once and the retry gets its answer, not a 404', async () => {
      const ops = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
      const id = await submit('Operator writes with keys');
      const duplicate = await submit('Merged with a key');
      const comment = () => request(ops, 'POST', `/api/v1/feedback/${id}/comments`, { body: { content: 'Once', team: { name: 'Team' } }, headers: { 'Idempotency-Key': 'comment-key' } });
      const firstComment = await comment();
      const againComment = await comment();
      expect(firstComment.status).to.equal(201);
      expect(againComment.status).to.equal(201);
      expect(againComment.body).to.deep.equal(firstComment.body);
      const detail = await request(server, 'GET', `/api/v1/feedback/${id}`);
      expect(detail.body.feedback.comments.map((c: { content: string }) => c.content)).to.deep.equal(['Once']);

      const merge = () => request(ops, 'POST', `/api/v1/feedback/${duplicate}/merge`, { body: { intoId: id }, headers: { 'Idempotency-Key': 'merge-key' } });
      const firstMerge = await merge();
      const againMerge = await merge();
      expect(firstMerge.status).to.equal(200);
      expect(againMerge.status).to.equal(200);
      expect(againMerge.headers.get('idempotent-replayed')).to.equal('true');
      expect(againMerge.body).to.deep.equal(firstMerge.body);
      expect((await request(server, 'GET', `/api/v1/feedback/${duplicate}`)).status).to.equal(404);
    });

    it('when a keyed write fails after its key was claimed, then neither the key nor the change is kept', async () => {
      const missing = '00000000-0000-4000-8000-000000000000';
      const first = await request(server, 'POST', `/api/v1/feedback/${missing}/vote`, { body: { endUser: { externalId: 'ghost-voter' } }, headers: { 'Idempotency-Key': 'rolled-back-key' } });
      expect(first.status).to.equal(404);
      const rows = await server.server.orm.em.fork().execute("select 1 from idempotency_keys where key = 'rolled-back-key'");
      expect(rows).to.have.length(0);
      const users = await server.server.orm.em.fork().execute("select 1 from end_users where external_id = 'ghost-voter'");
      expect(users).to.have.length(0);
    });

    it('when a GET carries an Idempotency-Key, then it is ignored', async () => {
      const id = await submit('GET with a key');
      const res = await request(server, 'GET', `/api/v1/feedback/${id}`, { headers: { 'Idempotency-Key': 'get-key' } });
      expect(res.status).to.equal(200);
      const rows = await server.server.orm.em.fork().execute("select 1 from idempotency_keys where key = 'get-key'");
      expect(rows).to.have.length(0);
    });
  });
}
