import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

type Caller = { url: string; apiKey: string };

/** Submits a fresh item; by default with a submitter, so the anonymous caller (127.0.0.1) has not voted on it. */
async function submit(server: Caller, body: Record<string, unknown> = { title: 'Vote target', endUser: { externalId: `submitter-${randomUUID()}` } }) {
  const res = await request(server, 'POST', '/api/v1/feedback', { body });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.feedback as { id: string; voteCount: number };
}

function vote(server: Caller, id: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  return request(server, 'POST', `/api/v1/feedback/${id}/vote`, options);
}

function checkVote(server: Caller, id: string, endUserId?: string, headers?: Record<string, string>) {
  const query = endUserId === undefined ? '' : `?endUserId=${encodeURIComponent(endUserId)}`;
  return request(server, 'GET', `/api/v1/feedback/${id}/vote${query}`, headers ? { headers } : {});
}

async function detailVoteCount(server: Caller, id: string): Promise<number> {
  const res = await request(server, 'GET', `/api/v1/feedback/${id}`);
  expect(res.status).to.equal(200);
  return res.body.feedback.voteCount;
}

for (const backend of backends()) {
  describe(`Votes: POST and GET /api/v1/feedback/:id/vote (${backend.name})`, () => {
    const server = withServer(backend);

    it('2.6 VoteResult: when a vote is toggled or checked, then the body is exactly {voted: boolean, voteCount: integer}', async () => {
      const item = await submit(server);
      const toggled = await vote(server, item.id, { body: { endUser: { externalId: 'shape-user' } } });
      const checked = await checkVote(server, item.id, 'shape-user');
      for (const res of [toggled, checked]) {
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/application\/json/);
        expect(Object.keys(res.body).sort()).to.deep.equal(['voteCount', 'voted']);
        expect(res.body.voted).to.be.a('boolean');
        expect(Number.isInteger(res.body.voteCount)).to.equal(true);
      }
      expect(toggled.body).to.deep.equal({ voted: true, voteCount: 2 });
      expect(checked.body).to.deep.equal({ voted: true, voteCount: 2 });
    });

    it('4.5 toggle: when an identified user votes, then voted is true and voteCount rises by one; voting again removes it', async () => {
      const item = await submit(server);
      expect(item.voteCount).to.equal(1);
      const first = await vote(server, item.id, { body: { endUser: { externalId: 'toggler' } } });
      expect(first.status).to.equal(200);
      expect(first.body).to.deep.equal({ voted: true, voteCount: 2 });
      expect(await detailVoteCount(server, item.id)).to.equal(2);

      const second = await vote(server, item.id, { body: { endUser: { externalId: 'toggler' } } });
      expect(second.status).to.equal(200);
      expect(second.body).to.deep.equal({ voted: false, voteCount: 1 });
      expect(await detailVoteCount(server, item.id)).to.equal(1);
    });

    it('3 vote states: when one voter toggles four times, then the state alternates voted/not voted and the count follows', async () => {
      const item = await submit(server);
      const seen: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await vote(server, item.id, { body: { endUser: { externalId: 'alternator' } } });
        expect(res.status).to.equal(200);
        seen.push(res.body);
        const state = await checkVote(server, item.id, 'alternator');
        expect(state.body).to.deep.equal(res.body);
      }
      expect(seen).to.deep.equal([
        { voted: true, voteCount: 2 },
        { voted: false, voteCount: 1 },
        { voted: true, voteCount: 2 },
        { voted: false, voteCount: 1 },
      ]);
    });

    it('4.5 toggle: when the body is {}, then the vote is anonymous (by caller IP) and a second {} removes it', async () => {
      const item = await submit(server);
      const first = await vote(server, item.id, { body: {} });
      expect(first.status).to.equal(200);
      expect(first.body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: true, voteCount: 2 });

      const second = await vote(server, item.id, { body: {} });
      expect(second.body).to.deep.equal({ voted: false, voteCount: 1 });
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it('4.5 toggle: when the request has no body at all, then it is an anonymous vote like {}', async () => {
      const item = await submit(server);
      const first = await vote(server, item.id);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body).to.deep.equal({ voted: true, voteCount: 2 });
      // The same anonymous caller sending {} is the same voter: it removes the vote.
      const second = await vote(server, item.id, { body: {} });
      expect(second.body).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it('4.5 toggle: when an identified user votes, then the user is upserted (identify with the same externalId returns the same user, with the name from the vote)', async () => {
      const item = await submit(server);
      const res = await vote(server, item.id, { body: { endUser: { externalId: 'vote-created', name: 'Vera', email: 'vera@example.com' } } });
      expect(res.body).to.deep.equal({ voted: true, voteCount: 2 });
      const identified = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'vote-created' } });
      expect(identified.status).to.equal(200);
      expect(identified.body.user).to.include({ name: 'Vera', email: 'vera@example.com' });

      // The vote is that user's: the detail view computes userHasVoted for it.
      const detail = await request(server, 'GET', `/api/v1/feedback/${item.id}?endUserId=vote-created`);
      expect(detail.body.feedback.userHasVoted).to.equal(true);

      const rows = await server.server.orm.em
        .fork()
        .execute<{ end_user_id: string | null; voter_key: string }[]>(
          `select v.end_user_id, v.voter_key from votes v join end_users e on e.id = v.end_user_id where v.feedback_id = ? and e.external_id = 'vote-created'`,
          [item.id],
        );
      expect(rows).to.have.length(1);
      expect(rows[0]!.end_user_id).to.equal(identified.body.user.id);
    });

    it('4.5 toggle: when an already identified user votes with a new name, then the same user is updated, not duplicated', async () => {
      const item = await submit(server);
      const before = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'renamed-voter', name: 'Old', email: 'old@example.com' } });
      await vote(server, item.id, { body: { endUser: { externalId: 'renamed-voter', name: 'New' } } });
      const after = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'renamed-voter' } });
      expect(after.body.user.id).to.equal(before.body.user.id);
      expect(after.body.user).to.include({ name: 'New', email: 'old@example.com' });
      const users = await server.server.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from end_users where external_id = 'renamed-voter'`);
      expect(users[0]!.n).to.equal(1);
    });

    it('4.5 toggle: when endUser has no externalId, then it is a 400 with fieldErrors.endUser and no vote is cast', async () => {
      const item = await submit(server);
      const res = await vote(server, item.id, { body: { endUser: { name: 'No Id' } } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.fieldErrors.endUser).to.be.an('array').that.is.not.empty;
      expect(res.body.details.fieldErrors.endUser.join(' ')).to.match(/externalId/);
      expect(await detailVoteCount(server, item.id)).to.equal(1);
    });

    it('4.5 toggle: when endUser.externalId is blank, then it is a 400 with fieldErrors.endUser', async () => {
      const item = await submit(server);
      const res = await vote(server, item.id, { body: { endUser: { externalId: '   ' } } });
      expect(res.status).to.equal(400);
      expect(res.body.details.fieldErrors.endUser).to.be.an('array').that.is.not.empty;
      expect(await detailVoteCount(server, item.id)).to.equal(1);
    });

    it('4.5 toggle: when two different users vote, then they are independent voters', async () => {
      const item = await submit(server);
      expect((await vote(server, item.id, { body: { endUser: { externalId: 'indep-a' } } })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await vote(server, item.id, { body: { endUser: { externalId: 'indep-b' } } })).body).to.deep.equal({ voted: true, voteCount: 3 });
      // A removes their vote; B's stays.
      expect((await vote(server, item.id, { body: { endUser: { externalId: 'indep-a' } } })).body).to.deep.equal({ voted: false, voteCount: 2 });
      expect((await checkVote(server, item.id, 'indep-a')).body).to.deep.equal({ voted: false, voteCount: 2 });
      expect((await checkVote(server, item.id, 'indep-b')).body).to.deep.equal({ voted: true, voteCount: 2 });
    });

    it('4.5 toggle: when an anonymous caller and an identified user vote from the same IP, then they are different voters', async () => {
      const item = await submit(server);
      expect((await vote(server, item.id, { body: {} })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await vote(server, item.id, { body: { endUser: { externalId: 'not-anon' } } })).body).to.deep.equal({ voted: true, voteCount: 3 });
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: true, voteCount: 3 });
      expect((await checkVote(server, item.id, 'not-anon')).body).to.deep.equal({ voted: true, voteCount: 3 });
      // The anonymous caller removes its vote; the user's stays.
      expect((await vote(server, item.id, { body: {} })).body).to.deep.equal({ voted: false, voteCount: 2 });
      expect((await checkVote(server, item.id, 'not-anon')).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: false, voteCount: 2 });
    });

    it('3 vote states: when an identified user submits an item, then that user starts as voted and their first toggle removes the vote', async () => {
      const item = await submit(server, { title: 'Own item', endUser: { externalId: 'own-submitter' } });
      expect(item.voteCount).to.equal(1);
      expect((await checkVote(server, item.id, 'own-submitter')).body).to.deep.equal({ voted: true, voteCount: 1 });
      expect((await vote(server, item.id, { body: { endUser: { externalId: 'own-submitter' } } })).body).to.deep.equal({ voted: false, voteCount: 0 });
      expect((await vote(server, item.id, { body: { endUser: { externalId: 'own-submitter' } } })).body).to.deep.equal({ voted: true, voteCount: 1 });
    });

    it('3 vote states: when an anonymous caller submits an item, then that caller (by IP) starts as voted', async () => {
      const item = await submit(server, { title: 'Anonymous own item' });
      expect(item.voteCount).to.equal(1);
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: true, voteCount: 1 });
      expect((await vote(server, item.id, { body: {} })).body).to.deep.equal({ voted: false, voteCount: 0 });
    });

    it('4.6 check: when endUserId is given, then it reports that user\'s state, not the caller IP\'s or another user\'s', async () => {
      const item = await submit(server);
      await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'check-b' } });
      await vote(server, item.id, { body: { endUser: { externalId: 'check-a' } } });
      expect((await checkVote(server, item.id, 'check-a')).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await checkVote(server, item.id, 'check-b')).body).to.deep.equal({ voted: false, voteCount: 2 });
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: false, voteCount: 2 });
    });

    it('4.6 check: when endUserId is unknown, then voted is false with the real voteCount (and no user is created)', async () => {
      const item = await submit(server);
      await vote(server, item.id, { body: { endUser: { externalId: 'real-1' } } });
      await vote(server, item.id, { body: { endUser: { externalId: 'real-2' } } });
      const res = await checkVote(server, item.id, 'nobody-by-this-id');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ voted: false, voteCount: 3 });
      const users = await server.server.orm.em.fork().execute<{ n: number }[]>(`select count(*)::int as n from end_users where external_id = 'nobody-by-this-id'`);
      expect(users[0]!.n).to.equal(0);
    });

    it('4.6 check: when endUserId is absent, then the check is by caller IP', async () => {
      const item = await submit(server);
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: false, voteCount: 1 });
      await vote(server, item.id);
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: true, voteCount: 2 });
    });

    for (const [label, makeId] of [
      ['unknown', () => randomUUID()],
      ['malformed', () => 'not-a-uuid'],
      ['numeric', () => '12345'],
    ] as const) {
      it(`4.5 toggle: when the feedback id is ${label}, then it is a 404 {"error":"Feedback not found"}`, async () => {
        const res = await vote(server, makeId(), { body: { endUser: { externalId: `on-${label}` } } });
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ error: 'Feedback not found' });
        const anonymous = await vote(server, makeId(), { body: {} });
        expect(anonymous.status).to.equal(404);
        expect(anonymous.body).to.deep.equal({ error: 'Feedback not found' });
      });

      it(`4.6 check: when the feedback id is ${label}, then it is a 404 {"error":"Feedback not found"}`, async () => {
        for (const res of [await checkVote(server, makeId()), await checkVote(server, makeId(), 'someone')]) {
          expect(res.status).to.equal(404);
          expect(res.body).to.deep.equal({ error: 'Feedback not found' });
        }
      });
    }

    it('4.5/4.6 not found: when the item belongs to another project, then voting and checking are 404 and the item is untouched', async () => {
      const em = server.server.orm.em.fork();
      await em.execute(`insert into projects (slug, name, voter_salt) values ('votes-other', 'Other', 'other-salt') on conflict do nothing`);
      const otherKey = await server.newKey('votes-other');
      const other = { url: server.url, apiKey: otherKey };
      const foreign = await submit(other);

      for (const res of [
        await vote(server, foreign.id, { body: { endUser: { externalId: 'cross' } } }),
        await vote(server, foreign.id, { body: {} }),
        await checkVote(server, foreign.id),
        await checkVote(server, foreign.id, 'cross'),
      ]) {
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ error: 'Feedback not found' });
      }
      expect(await detailVoteCount(other, foreign.id)).to.equal(1);
      expect((await checkVote(other, foreign.id)).body).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it('4.5 anonymous: when a caller votes anonymously, then votes stores a salted hash of the IP, never the address or its plain SHA-256', async () => {
      const item = await submit(server);
      expect((await vote(server, item.id, { body: {} })).body.voted).to.equal(true);
      const rows = await server.server.orm.em
        .fork()
        .execute<{ voter_key: string; end_user_id: string | null }[]>('select voter_key, end_user_id from votes where feedback_id = ?', [item.id]);
      expect(rows).to.have.length(2);
      const anonymous = rows.filter((row) => row.end_user_id === null);
      expect(anonymous).to.have.length(1);

      const ips = ['127.0.0.1', '::ffff:127.0.0.1'];
      const plainHashes = ips.flatMap((ip) => {
        const digest = createHash('sha256').update(ip).digest();
        return [digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')];
      });
      const all = await server.server.orm.em.fork().execute<{ voter_key: string }[]>('select voter_key from votes');
      for (const { voter_key } of all) {
        expect(voter_key).not.to.include('127.0.0.1');
        for (const hash of plainHashes) expect(voter_key).not.to.include(hash);
      }
      // The key is stable: the same caller is found again (the GET check matches it).
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: true, voteCount: 2 });
    });

    it('4.5 anonymous: when X-Forwarded-For is sent to a server without trustProxy, then it is ignored (different values are the same socket voter)', async () => {
      const item = await submit(server);
      expect((await vote(server, item.id, { headers: { 'x-forwarded-for': '203.0.113.1' } })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await checkVote(server, item.id, undefined, { 'x-forwarded-for': '203.0.113.2' })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: true, voteCount: 2 });
      // A different forged address toggles the same socket voter off.
      expect((await vote(server, item.id, { body: {}, headers: { 'x-forwarded-for': '198.51.100.77' } })).body).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it('4.5 toggle: when several items are voted on, then each item has its own vote state', async () => {
      const a = await submit(server);
      const b = await submit(server);
      await vote(server, a.id, { body: { endUser: { externalId: 'two-items' } } });
      expect((await checkVote(server, a.id, 'two-items')).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await checkVote(server, b.id, 'two-items')).body).to.deep.equal({ voted: false, voteCount: 1 });
      expect((await vote(server, b.id, { body: { endUser: { externalId: 'two-items' } } })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await vote(server, a.id, { body: { endUser: { externalId: 'two-items' } } })).body).to.deep.equal({ voted: false, voteCount: 1 });
      expect((await checkVote(server, b.id, 'two-items')).body).to.deep.equal({ voted: true, voteCount: 2 });
    });
  });

  describe(`Votes behind one trusted proxy: trustProxy 1 (${backend.name})`, () => {
    const server = withServer(backend, { trustProxy: 1 });

    it('4.5 anonymous: when two X-Forwarded-For addresses vote, then they are different anonymous voters', async () => {
      const item = await submit(server);
      expect((await vote(server, item.id, { body: {}, headers: { 'x-forwarded-for': '203.0.113.1' } })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await checkVote(server, item.id, undefined, { 'x-forwarded-for': '203.0.113.2' })).body).to.deep.equal({ voted: false, voteCount: 2 });
      expect((await checkVote(server, item.id, undefined, { 'x-forwarded-for': '203.0.113.1' })).body).to.deep.equal({ voted: true, voteCount: 2 });
      // The proxy's own socket address (no header) is yet another voter.
      expect((await checkVote(server, item.id)).body).to.deep.equal({ voted: false, voteCount: 2 });
      expect((await vote(server, item.id, { body: {}, headers: { 'x-forwarded-for': '203.0.113.2' } })).body).to.deep.equal({ voted: true, voteCount: 3 });
      expect((await vote(server, item.id, { body: {}, headers: { 'x-forwarded-for': '203.0.113.1' } })).body).to.deep.equal({ voted: false, voteCount: 2 });
    });

    it('4.5 anonymous: when X-Forwarded-For has two entries, then the voter is the last one (the one the trusted proxy added)', async () => {
      const item = await submit(server);
      expect((await vote(server, item.id, { body: {}, headers: { 'x-forwarded-for': '198.51.100.9, 203.0.113.1' } })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await checkVote(server, item.id, undefined, { 'x-forwarded-for': '203.0.113.1' })).body.voted).to.equal(true);
      expect((await checkVote(server, item.id, undefined, { 'x-forwarded-for': '198.51.100.9' })).body.voted).to.equal(false);
    });

    it('4.5 anonymous: when a caller forges different leading X-Forwarded-For entries, then it is still one voter (the last entry)', async () => {
      const item = await submit(server);
      expect((await vote(server, item.id, { body: {}, headers: { 'x-forwarded-for': '10.0.0.1, 203.0.113.7' } })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await vote(server, item.id, { body: {}, headers: { 'x-forwarded-for': '10.9.9.9, 203.0.113.7' } })).body).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it('4.5 anonymous: when an anonymous vote arrives through the proxy, then its stored key contains neither the forwarded address nor the socket address', async () => {
      const item = await submit(server);
      await vote(server, item.id, { body: {}, headers: { 'x-forwarded-for': '203.0.113.55' } });
      const rows = await server.server.orm.em.fork().execute<{ voter_key: string }[]>('select voter_key from votes where feedback_id = ? and end_user_id is null', [item.id]);
      expect(rows).to.have.length(1);
      expect(rows[0]!.voter_key).not.to.include('203.0.113.55');
      expect(rows[0]!.voter_key).not.to.include('127.0.0.1');
      expect(rows[0]!.voter_key).not.to.include(createHash('sha256').update('203.0.113.55').digest('hex'));
    });
  });

  describe(`Votes behind two trusted proxies: trustProxy 2 (${backend.name})`, () => {
    const server = withServer(backend, { trustProxy: 2 });

    it('4.5 anonymous: when X-Forwarded-For has three entries and trustProxy is 2, then the voter is the second-to-last entry', async () => {
      const item = await submit(server);
      expect((await vote(server, item.id, { body: {}, headers: { 'x-forwarded-for': '192.0.2.66, 198.51.100.9, 203.0.113.1' } })).body).to.deep.equal({ voted: true, voteCount: 2 });
      expect((await checkVote(server, item.id, undefined, { 'x-forwarded-for': '198.51.100.9, 203.0.113.99' })).body.voted).to.equal(true);
      expect((await checkVote(server, item.id, undefined, { 'x-forwarded-for': '192.0.2.66, 203.0.113.1' })).body.voted).to.equal(false);
      expect((await checkVote(server, item.id, undefined, { 'x-forwarded-for': '203.0.113.1, 198.51.100.10' })).body.voted).to.equal(false);
    });
  });
}
