import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

/** The fields of a similar item: a FeedbackListItem's (spec 2.2), userHasVoted and similarity, sorted. */
const SIMILAR_ITEM_KEYS = ['commentCount', 'createdAt', 'description', 'endUser', 'id', 'similarity', 'status', 'title', 'type', 'userHasVoted', 'voteCount'];

interface ProjectClient {
  url: string;
  apiKey: string;
}

interface SimilarItem {
  id: string;
  title: string;
  status: string;
  similarity: number;
  userHasVoted: boolean;
  voteCount: number;
}

for (const backend of backends()) {
  describe(`GET /api/v1/feedback/similar (${backend.name})`, () => {
    const server = withServer(backend);

    /** A project of its own with a key, so that no other test's items are similar. */
    async function freshProject(): Promise<ProjectClient> {
      const slug = `similar-${randomBytes(4).toString('hex')}`;
      await server.sql('insert into projects (slug, name, voter_salt) values (?, ?, ?)', [slug, `Project ${slug}`, randomBytes(32).toString('base64url')]);
      return { url: server.url, apiKey: await server.newKey(slug) };
    }

    async function create(project: ProjectClient, title: string, extra: Record<string, unknown> = {}): Promise<string> {
      const res = await request(project, 'POST', '/api/v1/feedback', { body: { title, ...extra } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.feedback.id;
    }

    async function similar(project: ProjectClient, query: string): Promise<SimilarItem[]> {
      const res = await request(project, 'GET', `/api/v1/feedback/similar?${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['items']);
      return res.body.items;
    }

    it('when a near-duplicate title exists, then it ranks first, items sharing a word follow, and an unrelated item is absent', async () => {
      const project = await freshProject();
      const near = await create(project, 'Please add a dark theme');
      const word = await create(project, 'Dark mode');
      const unrelated = await create(project, 'Export invoices as PDF', { description: 'A dark theme would not help here' });
      const items = await similar(project, `title=${encodeURIComponent('Dark theme please')}`);
      expect(items.map((item) => item.id)).to.deep.equal([near, word]);
      expect(items.map((item) => item.id)).not.to.include(unrelated);
      expect(items[0]!.similarity).to.be.greaterThan(items[1]!.similarity);
      for (const item of items) {
        expect(Object.keys(item).sort()).to.deep.equal(SIMILAR_ITEM_KEYS);
        expect(item.similarity).to.be.within(0.15, 1);
      }
    });

    it('when the title is exactly an existing title, then that item comes first with similarity 1', async () => {
      const project = await freshProject();
      await create(project, 'Keyboard shortcuts for the editor');
      const same = await create(project, 'Keyboard shortcuts');
      const items = await similar(project, 'title=keyboard%20SHORTCUTS');
      expect(items[0]).to.include({ id: same, similarity: 1 });
    });

    it('when several items have identical or near-identical titles with different vote counts, then the most voted comes first, and a closer but different title follows them', async () => {
      const project = await freshProject();
      // Vote counts set on the counters, as a merge or many voters would leave them.
      const votes = async (id: string, count: number) => server.sql('update feedback_counters set vote_count = ? where feedback_id = ?', [count, id]);
      const fourteen = await create(project, 'Export to CSV');
      const one = await create(project, 'export to csv!');
      const ten = await create(project, 'Export to CSV file');
      const planned = await create(project, 'Export to CSV');
      const other = await create(project, 'Export to Excel');
      await votes(fourteen, 14);
      await votes(one, 1);
      await votes(ten, 10);
      await votes(planned, 500);
      await votes(other, 900);
      await server.sql(`update feedback set status = 'planned' where id = ?`, [planned]);
      const items = await similar(project, 'title=Export%20to%20CSV');
      expect(items.map((item) => item.id), 'the same request by votes, then the different one').to.deep.equal([planned, fourteen, ten, one, other]);
      expect(items[0]).to.include({ status: 'planned', voteCount: 500, similarity: 1 });
      // Only two places: the band keeps its order under the limit, so the most voted copy is never cut.
      expect((await similar(project, 'title=Export%20to%20CSV&limit=2')).map((item) => item.id)).to.deep.equal([planned, fourteen]);
    });

    it('when another project has the closest item, then it never appears', async () => {
      const mine = await freshProject();
      const theirs = await freshProject();
      const own = await create(mine, 'Slack integration for alerts');
      await create(theirs, 'Slack integration');
      const items = await similar(mine, 'title=Slack%20integration');
      expect(items.map((item) => item.id)).to.deep.equal([own]);
    });

    it('when limit is given, then at most that many are returned; by default five', async () => {
      const project = await freshProject();
      for (let i = 0; i < 7; i++) await create(project, `Calendar sync ${i}`);
      expect(await similar(project, 'title=Calendar%20sync')).to.have.length(5);
      expect(await similar(project, 'title=Calendar%20sync&limit=2')).to.have.length(2);
      expect(await similar(project, 'title=Calendar%20sync&limit=10')).to.have.length(7);
    });

    it('when status is given, then only items with those statuses are returned', async () => {
      const project = await freshProject();
      const open = await create(project, 'Offline mode for travel');
      const done = await create(project, 'Offline mode');
      await server.sql(`update feedback set status = 'completed' where id = ?`, [done]);
      const all = await similar(project, 'title=Offline%20mode');
      expect(all.map((item) => item.id)).to.deep.equal([done, open]);
      expect(all[0]!.status).to.equal('completed');
      const active = await similar(project, 'title=Offline%20mode&status=new,planned');
      expect(active.map((item) => item.id)).to.deep.equal([open]);
    });

    it('when endUserId is given, then userHasVoted says whether that end user voted on each item', async () => {
      const project = await freshProject();
      const theirs = await create(project, 'Audit log export', { endUser: { externalId: 'voter-1' } });
      const other = await create(project, 'Audit log retention');
      const items = await similar(project, 'title=Audit%20log&endUserId=voter-1');
      const voted = Object.fromEntries(items.map((item) => [item.id, item.userHasVoted]));
      expect(voted).to.deep.equal({ [theirs]: true, [other]: false });
      const anonymous = await similar(project, 'title=Audit%20log');
      expect(anonymous.map((item) => item.userHasVoted)).to.deep.equal([false, false]);
    });

    it('when the title has only short or common words, then no item is similar', async () => {
      const project = await freshProject();
      await create(project, 'Add it to the app');
      expect(await similar(project, 'title=Add%20it%20to%20the')).to.deep.equal([]);
    });

    it('when a word of the title is inside an unrelated word, then that item is not returned', async () => {
      const project = await freshProject();
      await create(project, 'Happy customers');
      const app = await create(project, 'Mobile app');
      expect((await similar(project, 'title=App')).map((item) => item.id)).to.deep.equal([app]);
    });

    it('when the title is missing, empty, too long, or the limit is out of range, then it answers 400 with field details', async () => {
      const project = await freshProject();
      const cases: [string, string, string][] = [
        ['', 'title', 'Title is required'],
        ['title=%20%20', 'title', 'Title is required'],
        [`title=${'x'.repeat(201)}`, 'title', 'Title must be at most 200 characters'],
        ['title=Dark&limit=0', 'limit', 'limit must be an integer between 1 and 10'],
        ['title=Dark&limit=11', 'limit', 'limit must be an integer between 1 and 10'],
        ['title=Dark&limit=five', 'limit', 'limit must be an integer between 1 and 10'],
        ['title=Dark&status=open', 'status', 'Status must be one of: new, under-review, planned, in-progress, completed, closed'],
      ];
      for (const [query, field, message] of cases) {
        const res = await request(project, 'GET', `/api/v1/feedback/similar?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.error, query).to.equal('Invalid input');
        expect(res.body.details.fieldErrors[field], query).to.deep.equal([message]);
      }
    });

    it('when /feedback/similar is mounted, then GET /feedback/:id still answers an item, and an id that is not a uuid is still 404', async () => {
      const project = await freshProject();
      const id = await create(project, 'Detail still works');
      const detail = await request(project, 'GET', `/api/v1/feedback/${id}`);
      expect(detail.status).to.equal(200);
      expect(detail.body.feedback).to.include({ id, title: 'Detail still works' });
      const other = await request(project, 'GET', '/api/v1/feedback/similarities');
      expect(other.status).to.equal(404);
      expect(other.body).to.deep.equal({ error: 'Feedback not found' });
    });

    it('when the key is missing, then it answers 401 like every endpoint', async () => {
      const res = await request(server, 'GET', '/api/v1/feedback/similar?title=Dark', { apiKey: null });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ error: 'Missing x-api-key header' });
    });
  });
}
