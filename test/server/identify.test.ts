import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

for (const backend of backends()) {
  describe(`POST /api/v1/identify (${backend.name})`, () => {
    const server = withServer(backend);

    it('when a new externalId is identified, then it answers 200 {user} with exactly the fields of spec 2.5', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', {
        body: { externalId: 'new-user', email: 'ada@example.com', name: 'Ada', avatarUrl: 'https://example.com/a.png', metadata: { plan: 'pro' } },
      });
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['user']);
      const { user } = res.body;
      expect(Object.keys(user).sort()).to.deep.equal(['avatarUrl', 'createdAt', 'email', 'id', 'name']);
      expect(user).to.include({ email: 'ada@example.com', name: 'Ada', avatarUrl: 'https://example.com/a.png' });
      expect(user.id).to.be.a('string').and.not.equal('new-user');
      expect(user.createdAt).to.match(ISO_MS);
    });

    it('when only externalId is given, then the other fields are null', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'bare' } });
      expect(res.status).to.equal(200);
      expect(res.body.user).to.include({ email: null, name: null, avatarUrl: null });
    });

    it('when an existing externalId is identified again, then the same user is updated and omitted fields keep their values', async () => {
      const first = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'keeper', email: 'k@example.com', name: 'Old' } });
      const second = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'keeper', name: 'New' } });
      expect(second.status).to.equal(200);
      expect(second.body.user.id).to.equal(first.body.user.id);
      expect(second.body.user.createdAt).to.equal(first.body.user.createdAt);
      expect(second.body.user).to.include({ name: 'New', email: 'k@example.com' });
    });

    it('when a field is sent as null, then its stored value is cleared', async () => {
      await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'clearer', email: 'c@example.com' } });
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'clearer', email: null } });
      expect(res.body.user.email).to.equal(null);
    });

    it('when externalId has surrounding blanks, then it is trimmed (one user for " u " and "u")', async () => {
      const a = await request(server, 'POST', '/api/v1/identify', { body: { externalId: ' spaced ' } });
      const b = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'spaced' } });
      expect(a.body.user.id).to.equal(b.body.user.id);
    });

    it('when externalId is missing, then it is a 400 with fieldErrors.externalId', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: { email: 'x@example.com' } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.formErrors).to.deep.equal([]);
      expect(res.body.details.fieldErrors.externalId).to.deep.equal(['externalId is required']);
    });

    it('when fields have wrong JSON types, then it is a 400 naming each field, never a 500', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 42, email: true, name: {}, avatarUrl: 7, metadata: 'x' } });
      expect(res.status).to.equal(400);
      expect(res.body.details.fieldErrors).to.have.all.keys('externalId', 'email', 'name', 'avatarUrl', 'metadata');
    });

    it('when the email or avatar URL is malformed, then it is a 400 on that field', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'bad', email: 'not-an-email', avatarUrl: 'javascript:alert(1)' } });
      expect(res.status).to.equal(400);
      expect(res.body.details.fieldErrors.email[0]).to.match(/valid email/);
      expect(res.body.details.fieldErrors.avatarUrl[0]).to.match(/URL/);
    });

    it('when avatarUrl holds quotes, angle brackets, blanks or invisible characters (issue 49: stored verbatim), then it is a 400 on that field through identify, a submission and a vote, and nothing is stored', async () => {
      const bad = ['https://example.com/a.png"><script>alert(1)</script>', "https://example.com/it's.png", 'https://example.com/<b>.png', 'https://example.com/a b.png', 'https://exa"mple.com/a.png', 'https://example.com/a\u200B.png', 'https://example.com/a`.png', 'https://example.com\\a.png'];
      for (const avatarUrl of bad) {
        const identified = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'avatar-bad', avatarUrl } });
        expect(identified.status, avatarUrl).to.equal(400);
        expect(identified.body, avatarUrl).to.deep.equal({ error: 'Invalid input', details: { formErrors: [], fieldErrors: { avatarUrl: ['avatarUrl must be an http(s) URL'] } } });
        const submitted = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Avatar check', endUser: { externalId: 'avatar-bad', avatarUrl } } });
        expect(submitted.status, avatarUrl).to.equal(400);
        expect(Object.keys(submitted.body.details.fieldErrors), avatarUrl).to.deep.equal(['endUser']);
      }
      const item = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Avatar vote target' } });
      const voted = await request(server, 'POST', `/api/v1/feedback/${item.body.feedback.id}/vote`, { body: { endUser: { externalId: 'avatar-bad', avatarUrl: bad[0] } } });
      expect(voted.status).to.equal(400);
      expect(await server.sql("select 1 from end_users where external_id = 'avatar-bad'")).to.deep.equal([]);
      const good = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'avatar-good', avatarUrl: 'https://cdn.example.com/u/42.png?size=64&v=2#x' } });
      expect(good.status).to.equal(200);
      expect(good.body.user.avatarUrl, 'a good address is stored as given').to.equal('https://cdn.example.com/u/42.png?size=64&v=2#x');
    });

    it('when unknown fields are sent, then they are ignored', async () => {
      const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'extra', isAdmin: true } });
      expect(res.status).to.equal(200);
      expect(res.body.user).not.to.have.property('isAdmin');
    });

    it('when two projects identify the same externalId, then each project has its own user', async () => {
      const otherKey = await server.newKey();
      // Keys of one project share users: a second key of the default project sees the same user.
      const sameProject = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'shared' }, apiKey: otherKey });
      const first = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'shared' } });
      expect(sameProject.body.user.id).to.equal(first.body.user.id);

      const em = server.server.orm.em.fork();
      await em.getConnection().execute(`insert into projects (slug, name, voter_salt) values ('second', 'Second', 'salt')`);
      const secondProjectKey = await server.newKey('second');
      const other = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'shared' }, apiKey: secondProjectKey });
      expect(other.status).to.equal(200);
      expect(other.body.user.id).not.to.equal(first.body.user.id);
    });

    it('when 100 identify calls with one externalId run at once, then there is one user and zero 5xx', async () => {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => request(server, 'POST', '/api/v1/identify', { body: { externalId: 'stampede', name: `n${i}` } })),
      );
      expect(results.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
      expect(new Set(results.map((r) => r.body.user.id)).size).to.equal(1);
      const rows = await server.server.orm.em.fork().getConnection().execute(`select count(*)::int as n from end_users where external_id = 'stampede'`);
      expect(rows[0]!.n).to.equal(1);
    });
  });
}
