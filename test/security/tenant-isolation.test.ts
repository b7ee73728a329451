import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

const NOT_FOUND = { error: 'Feedback not found' };

for (const backend of backends()) {
  describe(`Tenant isolation: a key of project A against project B's data (${backend.name})`, () => {
    const server = withServer(backend);
    let a: { url: string; apiKey: string };
    let b: { url: string; apiKey: string };
    let bItem: { id: string };
    let aItem: { id: string };

    before(async () => {
      a = server;
      b = { url: server.url, apiKey: await server.newKey('project-b') };
      // B's user "alice" with a profile, B's item (with a word nobody in A uses), a vote and a comment-free detail.
      const identified = await request(b, 'POST', '/api/v1/identify', {
        body: { externalId: 'alice', name: 'Alice of B', email: 'alice@b.example' },
      });
      expect(identified.status).to.equal(200);
      const created = await request(b, 'POST', '/api/v1/feedback', {
        body: { title: 'Zanzibarian export of B', description: 'only project B says zanzibarian', type: 'bug', endUser: { externalId: 'alice' } },
      });
      expect(created.status).to.equal(201);
      bItem = created.body.feedback;
      const own = await request(a, 'POST', '/api/v1/feedback', { body: { title: 'An item of A', type: 'idea' } });
      expect(own.status).to.equal(201);
      aItem = own.body.feedback;
    });

    it("when A reads B's item, then it is the same 404 as an unknown id", async () => {
      const res = await request(a, 'GET', `/api/v1/feedback/${bItem.id}`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_FOUND);
      const withUser = await request(a, 'GET', `/api/v1/feedback/${bItem.id}?endUserId=alice`);
      expect(withUser.status).to.equal(404);
      expect(withUser.body).to.deep.equal(NOT_FOUND);
    });

    it("when A votes on B's item, identified or anonymous, then 404 and B's count is unchanged", async () => {
      for (const body of [{ endUser: { externalId: 'alice' } }, { endUser: { externalId: 'mallory', name: 'M' } }, {}]) {
        const res = await request(a, 'POST', `/api/v1/feedback/${bItem.id}/vote`, { body });
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal(NOT_FOUND);
      }
      const state = await request(b, 'GET', `/api/v1/feedback/${bItem.id}/vote?endUserId=alice`);
      expect(state.body).to.deep.equal({ voted: true, voteCount: 1 });
      // A refused vote writes nothing: not even the new voter's profile.
      const rows = await server.server.sql.query<{ n: number }>('count_mallory', "select count(*)::int as n from end_users where external_id = 'mallory'", []);
      expect(rows[0]!.n).to.equal(0);
    });

    it("when A asks for the vote state of B's item, then 404", async () => {
      for (const query of ['?endUserId=alice', '']) {
        const res = await request(a, 'GET', `/api/v1/feedback/${bItem.id}/vote${query}`);
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal(NOT_FOUND);
      }
    });

    it("when A lists or searches, then B's items are neither shown nor counted", async () => {
      const all = await request(a, 'GET', '/api/v1/feedback?limit=100');
      expect(all.status).to.equal(200);
      expect(all.body.items.map((item: { id: string }) => item.id)).to.deep.equal([aItem.id]);
      expect(all.body.total).to.equal(1);
      for (const query of ['search=zanzibarian', 'type=bug', 'status=new&type=bug', 'sortBy=votes&type=bug']) {
        const res = await request(a, 'GET', `/api/v1/feedback?${query}`);
        expect(res.status, query).to.equal(200);
        expect(res.body.total, query).to.equal(0);
        expect(res.body.items, query).to.deep.equal([]);
      }
    });

    it("when A uses B's user's externalId, then it is a different user of A's own and B's profile never shows", async () => {
      const identified = await request(a, 'POST', '/api/v1/identify', { body: { externalId: 'alice' } });
      expect(identified.status).to.equal(200);
      expect(JSON.stringify(identified.body)).not.to.match(/Alice of B|alice@b\.example/);
      const submitted = await request(a, 'POST', '/api/v1/feedback', { body: { title: 'A by alice', endUser: { externalId: 'alice' } } });
      expect(submitted.status).to.equal(201);
      expect(submitted.body.feedback.endUser).to.deep.equal({ name: null, avatarUrl: null });
      // B's alice has voted on B's item; A's alice has not voted on A's first item.
      const state = await request(a, 'GET', `/api/v1/feedback/${aItem.id}/vote?endUserId=alice`);
      expect(state.body).to.deep.equal({ voted: false, voteCount: 1 });
      const detail = await request(b, 'GET', `/api/v1/feedback/${bItem.id}`);
      expect(detail.body.feedback.endUser).to.deep.equal({ name: 'Alice of B', avatarUrl: null });
    });

    it("when B reads its own item after all this, then nothing of A's reached it", async () => {
      const detail = await request(b, 'GET', `/api/v1/feedback/${bItem.id}?endUserId=alice`);
      expect(detail.status).to.equal(200);
      expect(detail.body.feedback).to.include({ voteCount: 1, commentCount: 0, userHasVoted: true, status: 'new' });
      const list = await request(b, 'GET', '/api/v1/feedback?limit=100');
      expect(list.body.total).to.equal(1);
    });
  });
}
