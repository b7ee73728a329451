import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The fields of a FeedbackListItem (spec 2.2), sorted. */
const LIST_ITEM_KEYS = ['commentCount', 'createdAt', 'description', 'endUser', 'id', 'status', 'title', 'type', 'voteCount'];
const TYPES = ['bug', 'idea', 'question', 'other'] as const;

for (const backend of backends()) {
  describe(`POST /api/v1/feedback (${backend.name})`, () => {
    const server = withServer(backend);

    /** Runs SQL on the server's database. */
    async function submit(body: unknown) {
      return request(server, 'POST', '/api/v1/feedback', { body });
    }

    it('2.2 fields: when a valid item is submitted, then it answers 201 {feedback} with exactly the fields of spec 2.2', async () => {
      const res = await submit({ title: 'Dark mode', description: 'Please add a dark theme', type: 'idea' });
      expect(res.status).to.equal(201);
      expect(Object.keys(res.body)).to.deep.equal(['feedback']);
      const { feedback } = res.body;
      expect(Object.keys(feedback).sort()).to.deep.equal(LIST_ITEM_KEYS);
      expect(feedback).to.include({ title: 'Dark mode', description: 'Please add a dark theme', type: 'idea' });
      expect(feedback.id).to.be.a('string').and.not.equal('');
    });

    it('2.2 fields: when two items are submitted, then each gets its own id', async () => {
      const a = await submit({ title: 'First' });
      const b = await submit({ title: 'First' });
      expect(a.body.feedback.id).to.be.a('string');
      expect(b.body.feedback.id).to.be.a('string').and.not.equal(a.body.feedback.id);
    });

    it('2.2 fields: when an item is submitted, then createdAt is an ISO 8601 timestamp with milliseconds and Z, close to now', async () => {
      const before = Date.now();
      const res = await submit({ title: 'Timestamped' });
      const after = Date.now();
      expect(res.body.feedback.createdAt).to.match(ISO_MS);
      const at = Date.parse(res.body.feedback.createdAt);
      // The database clock and ours may differ slightly; a minute is plenty.
      expect(at).to.be.within(before - 60_000, after + 60_000);
    });

    it('2.2 fields: when no description is given, then description is null', async () => {
      const res = await submit({ title: 'No description' });
      expect(res.status).to.equal(201);
      expect(res.body.feedback.description).to.equal(null);
    });

    it('3 states: when an item is submitted, then its status is new, commentCount 0 and voteCount 1', async () => {
      const res = await submit({ title: 'Fresh item', type: 'bug' });
      expect(res.status).to.equal(201);
      expect(res.body.feedback).to.include({ status: 'new', commentCount: 0, voteCount: 1 });
    });

    it('3 states: when the body tries to set status, counts or id, then they are ignored and the item is new with one vote', async () => {
      const res = await submit({
        title: 'Sneaky',
        status: 'completed',
        voteCount: 99,
        commentCount: 7,
        id: '00000000-0000-4000-8000-000000000000',
        createdAt: '2000-01-01T00:00:00.000Z',
      });
      expect(res.status).to.equal(201);
      expect(res.body.feedback).to.include({ status: 'new', voteCount: 1, commentCount: 0 });
      expect(res.body.feedback.id).not.to.equal('00000000-0000-4000-8000-000000000000');
      expect(res.body.feedback.createdAt).not.to.equal('2000-01-01T00:00:00.000Z');
    });

    it('3 states: when an identified submitter toggles their vote with the same endUser, then voted is false and voteCount 0', async () => {
      const created = await submit({ title: 'My own idea', endUser: { externalId: 'self-voter' } });
      expect(created.body.feedback.voteCount).to.equal(1);
      const id = created.body.feedback.id;
      const before = await request(server, 'GET', `/api/v1/feedback/${id}/vote?endUserId=self-voter`);
      expect(before.body).to.deep.equal({ voted: true, voteCount: 1 });
      const toggled = await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId: 'self-voter' } } });
      expect(toggled.status).to.equal(200);
      expect(toggled.body).to.deep.equal({ voted: false, voteCount: 0 });
    });

    it("3 states: when an identified user submits, then the submission vote is the user's, not the caller IP's", async () => {
      const created = await submit({ title: 'Voted by the user', endUser: { externalId: 'not-the-ip' } });
      const byIp = await request(server, 'GET', `/api/v1/feedback/${created.body.feedback.id}/vote`);
      expect(byIp.status).to.equal(200);
      expect(byIp.body).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it("3 states: when an anonymous item is submitted, then the submission vote belongs to the caller's IP", async () => {
      const created = await submit({ title: 'Anonymous idea' });
      const id = created.body.feedback.id;
      const check = await request(server, 'GET', `/api/v1/feedback/${id}/vote`);
      expect(check.status).to.equal(200);
      expect(check.body).to.deep.equal({ voted: true, voteCount: 1 });
      const toggled = await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: {} });
      expect(toggled.body).to.deep.equal({ voted: false, voteCount: 0 });
    });

    it('4.2 type: when no type is given, then the type is idea', async () => {
      const res = await submit({ title: 'Untyped' });
      expect(res.status).to.equal(201);
      expect(res.body.feedback.type).to.equal('idea');
    });

    for (const type of TYPES) {
      it(`4.2 type: when type is ${type}, then it is accepted and returned`, async () => {
        const res = await submit({ title: `A ${type}`, type });
        expect(res.status).to.equal(201);
        expect(res.body.feedback.type).to.equal(type);
      });
    }

    it('4.2 title: when the title has surrounding blanks, then it is stored trimmed', async () => {
      const res = await submit({ title: '   Trim me  \t' });
      expect(res.status).to.equal(201);
      expect(res.body.feedback.title).to.equal('Trim me');
      const detail = await request(server, 'GET', `/api/v1/feedback/${res.body.feedback.id}`);
      expect(detail.body.feedback.title).to.equal('Trim me');
    });

    it('8 title length: when the title is exactly 200 characters, then it is accepted unchanged', async () => {
      const title = 'x'.repeat(199) + 'y';
      const res = await submit({ title });
      expect(res.status).to.equal(201);
      expect(res.body.feedback.title).to.equal(title);
    });

    it('8 title length: when the title is 201 characters, then it is a 400 on fieldErrors.title', async () => {
      const res = await submit({ title: 'x'.repeat(201) });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.fieldErrors).to.have.all.keys('title');
      expect(res.body.details.fieldErrors.title[0]).to.match(/200/);
    });

    it('7 validation: when title is missing, then it is a 400 "Invalid input" with "Title is required" under fieldErrors.title', async () => {
      const res = await submit({ description: 'No title here' });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.formErrors).to.be.an('array');
      expect(res.body.details.fieldErrors.title).to.include('Title is required');
    });

    it('7 validation: when the body is empty, then it is a 400 with "Title is required"', async () => {
      const res = await request(server, 'POST', '/api/v1/feedback', { rawBody: '{}', headers: { 'content-type': 'application/json' } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.fieldErrors.title).to.include('Title is required');
    });

    it('7 validation: when title is only blanks, then it is a 400 with "Title is required"', async () => {
      const res = await submit({ title: '   ' });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.fieldErrors.title).to.include('Title is required');
    });

    it('7 validation: when type is not one of the four, then fieldErrors.type lists bug, idea, question, other', async () => {
      const res = await submit({ title: 'Bad type', type: 'feature' });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.fieldErrors).to.have.all.keys('type');
      const message: string = res.body.details.fieldErrors.type[0];
      for (const type of TYPES) expect(message).to.include(type);
    });

    it('7 validation: when type differs only in case, then it is a 400 on fieldErrors.type', async () => {
      const res = await submit({ title: 'Shouting type', type: 'BUG' });
      expect(res.status).to.equal(400);
      expect(res.body.details.fieldErrors).to.have.property('type');
    });

    it('7 validation: when endUser has no externalId, then it is a 400 on fieldErrors.endUser and nothing is stored', async () => {
      const res = await submit({ title: 'Orphan submitter', endUser: { name: 'Nobody' } });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('Invalid input');
      expect(res.body.details.fieldErrors).to.have.property('endUser');
      const rows = await server.sql<{ n: number }>(`select count(*)::int as n from feedback where title = 'Orphan submitter'`);
      expect(rows[0]!.n).to.equal(0);
    });

    it('7 validation: when endUser.externalId is blank, then it is a 400 on fieldErrors.endUser', async () => {
      const res = await submit({ title: 'Blank submitter', endUser: { externalId: '  ' } });
      expect(res.status).to.equal(400);
      expect(res.body.details.fieldErrors).to.have.property('endUser');
    });

    const wrongTypes: Array<[string, unknown]> = [
      ['title', 5],
      ['description', []],
      ['metadata', 'x'],
      ['endUser', 'x'],
      ['type', 3],
    ];
    for (const [field, value] of wrongTypes) {
      it(`7 validation: when ${field} is ${JSON.stringify(value)} (a wrong JSON type), then it is a 400 on fieldErrors.${field}, never a 500`, async () => {
        const body: Record<string, unknown> = { title: 'Typed wrongly', [field]: value };
        const res = await submit(body);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.equal('Invalid input');
        expect(res.body.details.fieldErrors).to.have.all.keys(field);
        expect(res.body.details.fieldErrors[field].join(' ').toLowerCase()).to.include(field.toLowerCase());
      });
    }

    it('7 validation: when every field has a wrong JSON type at once, then one 400 names all of them', async () => {
      const res = await submit({ title: 5, description: [], metadata: 'x', endUser: 'x', type: 3 });
      expect(res.status).to.equal(400);
      expect(res.body.details.fieldErrors).to.have.all.keys('title', 'description', 'metadata', 'endUser', 'type');
    });

    it('7 validation: when endUser fields have wrong JSON types, then it is a 400 on fieldErrors.endUser, never a 500', async () => {
      const res = await submit({ title: 'Bad submitter', endUser: { externalId: 42, name: {}, metadata: [] } });
      expect(res.status).to.equal(400);
      expect(res.body.details.fieldErrors).to.have.property('endUser');
    });

    it('4.2 metadata: when metadata is an object, then the item is accepted and the metadata stored', async () => {
      const res = await submit({ title: 'With metadata', metadata: { page: '/settings', build: 42 } });
      expect(res.status).to.equal(201);
      const rows = await server.sql<{ metadata: unknown }>('select metadata from feedback where id = ?', [res.body.feedback.id]);
      expect(rows[0]!.metadata).to.deep.equal({ page: '/settings', build: 42 });
    });

    it('4.2 unknown fields: when the body carries unknown fields, then they are ignored and not echoed', async () => {
      const res = await submit({ title: 'Extra fields', isAdmin: true, priority: 'high' });
      expect(res.status).to.equal(201);
      expect(Object.keys(res.body.feedback).sort()).to.deep.equal(LIST_ITEM_KEYS);
    });

    it('4.2 anonymous: when no endUser is given, then the item is accepted with endUser null', async () => {
      const res = await submit({ title: 'Nobody in particular' });
      expect(res.status).to.equal(201);
      expect(res.body.feedback.endUser).to.equal(null);
    });

    it('2.2 endUser: when endUser is given with name and avatar, then the response shows exactly {name, avatarUrl}', async () => {
      const res = await submit({
        title: 'From Ada',
        endUser: { externalId: 'ada-submit', email: 'ada@example.com', name: 'Ada', avatarUrl: 'https://example.com/ada.png' },
      });
      expect(res.status).to.equal(201);
      expect(res.body.feedback.endUser).to.deep.equal({ name: 'Ada', avatarUrl: 'https://example.com/ada.png' });
    });

    it('2.2 endUser: when endUser has only an externalId, then the response shows {name: null, avatarUrl: null}', async () => {
      const res = await submit({ title: 'From a bare user', endUser: { externalId: 'bare-submitter' } });
      expect(res.status).to.equal(201);
      expect(res.body.feedback.endUser).to.deep.equal({ name: null, avatarUrl: null });
    });

    it('4.2 endUser: when a new endUser submits, then the user is created (identify afterwards finds the same user with the name given)', async () => {
      const res = await submit({
        title: 'Upserted submitter',
        endUser: { externalId: 'upsert-me', name: 'Grace', email: 'grace@example.com', avatarUrl: 'https://example.com/g.png' },
      });
      expect(res.status).to.equal(201);
      const identified = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'upsert-me' } });
      expect(identified.body.user).to.include({ name: 'Grace', email: 'grace@example.com', avatarUrl: 'https://example.com/g.png' });
      const rows = await server.sql<{ end_user_id: string }>('select end_user_id from feedback where id = ?', [res.body.feedback.id]);
      expect(rows[0]!.end_user_id).to.equal(identified.body.user.id);
    });

    it('4.2 endUser: when an already identified user submits, then the same user is used and updated with the fields given', async () => {
      const first = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'known-user', name: 'Old name', avatarUrl: 'https://example.com/k.png' } });
      const res = await submit({ title: 'From a known user', endUser: { externalId: 'known-user', name: 'New name' } });
      expect(res.status).to.equal(201);
      // The avatar was not sent, so it keeps its stored value; the name was, so it changes.
      expect(res.body.feedback.endUser).to.deep.equal({ name: 'New name', avatarUrl: 'https://example.com/k.png' });
      const again = await request(server, 'POST', '/api/v1/identify', { body: { externalId: 'known-user' } });
      expect(again.body.user.id).to.equal(first.body.user.id);
      expect(again.body.user.name).to.equal('New name');
      const users = await server.sql<{ n: number }>(`select count(*)::int as n from end_users where external_id = 'known-user'`);
      expect(users[0]!.n).to.equal(1);
    });

    it('4.2 endUser: when the submitted item is read back, then the detail shows the same item as the creation response', async () => {
      const res = await submit({ title: 'Round trip', description: 'Same everywhere', type: 'question', endUser: { externalId: 'round', name: 'Rob' } });
      const detail = await request(server, 'GET', `/api/v1/feedback/${res.body.feedback.id}`);
      expect(detail.status).to.equal(200);
      const { userHasVoted: _voted, comments: _comments, ...listPart } = detail.body.feedback;
      expect(listPart).to.deep.equal(res.body.feedback);
    });
  });
}
