import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { addComment } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

/** The fields of a FeedbackListItem (spec 2.2), sorted. */
const LIST_ITEM_KEYS = ['commentCount', 'createdAt', 'description', 'endUser', 'id', 'status', 'title', 'type', 'voteCount'];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SORTS = ['newest', 'oldest', 'votes', 'comments'] as const;

/** A caller of one project: what `request` needs, and the project's id for SQL and addComment. */
interface ProjectClient {
  url: string;
  apiKey: string;
  projectId: string;
}

interface ItemInput {
  title: string;
  description?: string;
  type?: string;
  endUser?: Record<string, unknown>;
}

for (const backend of backends()) {
  describe(`GET /api/v1/feedback (${backend.name})`, () => {
    const server = withServer(backend);
    let projects = 0;

    /** A project of its own with a key, so a test can assert exact totals. */
    async function freshProject(): Promise<ProjectClient> {
      const slug = `list-${++projects}-${randomBytes(4).toString('hex')}`;
      const rows = await server.sql<{ id: string }>('insert into projects (slug, name, voter_salt) values (?, ?, ?) returning id', [
        slug,
        `Project ${slug}`,
        randomBytes(32).toString('base64url'),
      ]);
      const apiKey = await server.newKey(slug);
      return { url: server.url, apiKey, projectId: rows[0]!.id };
    }

    async function create(project: ProjectClient, input: ItemInput): Promise<string> {
      const res = await request(project, 'POST', '/api/v1/feedback', { body: input });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.feedback.id;
    }

    /** Creates items one after another, each with a creation time a minute after the previous one. */
    async function createTimed(project: ProjectClient, inputs: ItemInput[], start = Date.UTC(2025, 0, 1)): Promise<string[]> {
      const ids: string[] = [];
      for (const [i, input] of inputs.entries()) {
        const id = await create(project, input);
        await setCreatedAt(id, new Date(start + i * 60_000));
        ids.push(id);
      }
      return ids;
    }

    /** Moves an item's creation time (there is no API for it), in the item and in its counters. */
    async function setCreatedAt(id: string, at: Date): Promise<void> {
      await server.sql('update feedback set created_at = cast(? as timestamptz) where id = ?', [at.toISOString(), id]);
      await server.sql('update feedback_counters set created_at = cast(? as timestamptz) where feedback_id = ?', [at.toISOString(), id]);
    }

    /** Changes an item's status (the public API has none: spec part 3). */
    async function setStatus(id: string, status: string): Promise<void> {
      await server.sql('update feedback set status = ? where id = ?', [status, id]);
    }

    async function vote(project: ProjectClient, id: string, externalId: string): Promise<void> {
      const res = await request(project, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId } } });
      expect(res.status).to.equal(200);
      expect(res.body.voted).to.equal(true);
    }

    async function comment(project: ProjectClient, id: string, content: string): Promise<void> {
      const added = await addComment(server.server.orm.em.fork(), project.projectId, id, content, { kind: 'team', name: 'Support' });
      expect(added).to.equal(true);
    }

    async function list(project: ProjectClient, query = '') {
      return request(project, 'GET', `/api/v1/feedback${query}`);
    }

    async function listIds(project: ProjectClient, query: string): Promise<string[]> {
      const res = await list(project, query);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.items.map((item: { id: string }) => item.id);
    }

    it('2.7 shape: when a project has items, then the list answers 200 with exactly items, total, page, limit, totalPages and items of spec 2.2', async () => {
      const project = await freshProject();
      await create(project, { title: 'Shaped', description: 'd', type: 'bug', endUser: { externalId: 'shaper', name: 'Sha', avatarUrl: 'https://example.com/s.png' } });
      await create(project, { title: 'Anonymous shape' });
      const res = await list(project);
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body).sort()).to.deep.equal(['items', 'limit', 'page', 'total', 'totalPages']);
      expect(res.body.items).to.have.length(2);
      for (const item of res.body.items) {
        expect(Object.keys(item).sort()).to.deep.equal(LIST_ITEM_KEYS);
        expect(item.createdAt).to.match(ISO_MS);
      }
      const shaped = res.body.items.find((item: { title: string }) => item.title === 'Shaped');
      expect(shaped).to.include({ description: 'd', type: 'bug', status: 'new', voteCount: 1, commentCount: 0 });
      expect(shaped.endUser).to.deep.equal({ name: 'Sha', avatarUrl: 'https://example.com/s.png' });
      const anonymous = res.body.items.find((item: { title: string }) => item.title === 'Anonymous shape');
      expect(anonymous.endUser).to.equal(null);
      expect(anonymous.description).to.equal(null);
    });

    it('4.3 defaults: when no parameters are given, then it is page 1 of 20, newest first', async () => {
      const project = await freshProject();
      const ids = await createTimed(project, Array.from({ length: 23 }, (_, i) => ({ title: `Default ${i}` })));
      const res = await list(project);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ total: 23, page: 1, limit: 20, totalPages: 2 });
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([...ids].reverse().slice(0, 20));
    });

    it('2.7 total: when the page holds fewer items than match, then total counts every matching item, not the page', async () => {
      const project = await freshProject();
      await createTimed(project, Array.from({ length: 5 }, (_, i) => ({ title: `Counted ${i}` })));
      const res = await list(project, '?limit=2&page=2');
      expect(res.status).to.equal(200);
      expect(res.body.items).to.have.length(2);
      expect(res.body).to.include({ total: 5, page: 2, limit: 2, totalPages: 3 });
    });

    it('2.7 total: when a filter is given, then total counts only the items that match it', async () => {
      const project = await freshProject();
      await createTimed(project, [{ title: 'b1', type: 'bug' }, { title: 'i1', type: 'idea' }, { title: 'b2', type: 'bug' }, { title: 'b3', type: 'bug' }]);
      const res = await list(project, '?type=bug&limit=1');
      expect(res.body).to.include({ total: 3, limit: 1, totalPages: 3 });
      expect(res.body.items).to.have.length(1);
    });

    it('4.3 status: when status names one value, then only items with that status are listed', async () => {
      const project = await freshProject();
      const [a, b, c] = await createTimed(project, [{ title: 'Planned one' }, { title: 'Still new' }, { title: 'Planned two' }]);
      await setStatus(a!, 'planned');
      await setStatus(c!, 'planned');
      const planned = await list(project, '?status=planned');
      expect(planned.status).to.equal(200);
      expect(planned.body.total).to.equal(2);
      expect(planned.body.items.map((item: { id: string }) => item.id)).to.deep.equal([c, a]);
      for (const item of planned.body.items) expect(item.status).to.equal('planned');
      expect(await listIds(project, '?status=new')).to.deep.equal([b]);
    });

    it('4.3 status: when status names several values separated by commas, then items with any of them are listed', async () => {
      const project = await freshProject();
      const [a, b, c, d] = await createTimed(project, [{ title: 's1' }, { title: 's2' }, { title: 's3' }, { title: 's4' }]);
      await setStatus(a!, 'in-progress');
      await setStatus(b!, 'completed');
      await setStatus(c!, 'closed');
      const res = await list(project, '?status=in-progress,completed');
      expect(res.body.total).to.equal(2);
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([b, a]);
      expect(await listIds(project, '?status=new,closed')).to.deep.equal([d, c]);
    });

    it('4.3 status: when the comma-separated values have spaces around them, then they still filter', async () => {
      const project = await freshProject();
      const [a, b] = await createTimed(project, [{ title: 'sp1' }, { title: 'sp2' }, { title: 'sp3' }]);
      await setStatus(a!, 'under-review');
      await setStatus(b!, 'planned');
      const res = await list(project, `?status=${encodeURIComponent('under-review, planned')}`);
      expect(res.status).to.equal(200);
      expect(res.body.total).to.equal(2);
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([b, a]);
    });

    it('4.3 status: when every status of spec 2.1 is named, then every item is listed', async () => {
      const project = await freshProject();
      const statuses = ['new', 'under-review', 'planned', 'in-progress', 'completed', 'closed'];
      const ids = await createTimed(project, statuses.map((status) => ({ title: `All ${status}` })));
      for (const [i, id] of ids.entries()) await setStatus(id, statuses[i]!);
      for (const [i, status] of statuses.entries()) {
        expect(await listIds(project, `?status=${status}`), status).to.deep.equal([ids[i]]);
      }
      const all = await list(project, `?status=${statuses.join(',')}`);
      expect(all.body.total).to.equal(6);
    });

    it('4.3 type: when type names one value, then only items of that type are listed', async () => {
      const project = await freshProject();
      const [bug, , question, other] = await createTimed(project, [
        { title: 't-bug', type: 'bug' },
        { title: 't-idea', type: 'idea' },
        { title: 't-question', type: 'question' },
        { title: 't-other', type: 'other' },
      ]);
      expect(await listIds(project, '?type=bug')).to.deep.equal([bug]);
      expect(await listIds(project, '?type=question')).to.deep.equal([question]);
      expect(await listIds(project, '?type=other')).to.deep.equal([other]);
      const ideas = await list(project, '?type=idea');
      expect(ideas.body.total).to.equal(1);
      expect(ideas.body.items[0].type).to.equal('idea');
    });

    it('4.3 type: when type names several values separated by commas, then items of any of them are listed', async () => {
      const project = await freshProject();
      const [bug, , question] = await createTimed(project, [
        { title: 'm-bug', type: 'bug' },
        { title: 'm-idea', type: 'idea' },
        { title: 'm-question', type: 'question' },
        { title: 'm-other', type: 'other' },
      ]);
      const res = await list(project, '?type=bug,question');
      expect(res.body.total).to.equal(2);
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([question, bug]);
    });

    it('4.3 filters: when status, type and search are combined, then only items matching all of them are listed', async () => {
      const project = await freshProject();
      const [match, wrongStatus, , wrongSearch] = await createTimed(project, [
        { title: 'Crash on login', type: 'bug' },
        { title: 'Crash on logout', type: 'bug' },
        { title: 'Crash idea', type: 'idea' },
        { title: 'Slow start', type: 'bug' },
      ]);
      await setStatus(match!, 'planned');
      await setStatus(wrongSearch!, 'planned');
      await setStatus(wrongStatus!, 'closed');
      const res = await list(project, '?status=planned&type=bug&search=crash');
      expect(res.body.total).to.equal(1);
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([match]);
    });

    it('4.3 search: when search is given, then it matches title or description, case-insensitively', async () => {
      const project = await freshProject();
      const [inTitle, inDescription] = await createTimed(project, [
        { title: 'Dark MODE please' },
        { title: 'Theme', description: 'Support for a dark mode toggle' },
        { title: 'Other thing', description: 'nothing dark here, just a mode' },
        { title: 'Unrelated' },
      ]);
      for (const term of ['dark mode', 'DARK MODE', 'Dark Mode']) {
        const res = await list(project, `?search=${encodeURIComponent(term)}`);
        expect(res.body.total, term).to.equal(2);
        expect(res.body.items.map((item: { id: string }) => item.id), term).to.deep.equal([inDescription, inTitle]);
      }
    });

    it('4.3 search: when nothing matches the search, then items is empty and total 0', async () => {
      const project = await freshProject();
      await create(project, { title: 'Something', description: 'else' });
      const res = await list(project, '?search=zzzyyyxxx');
      expect(res.status).to.equal(200);
      expect(res.body.items).to.deep.equal([]);
      expect(res.body.total).to.equal(0);
    });

    it('4.3 search: when the search contains %, then % matches only itself ("0%" finds "100% done", not "1000 done")', async () => {
      const project = await freshProject();
      const [percent] = await createTimed(project, [{ title: '100% done' }, { title: '1000 done' }]);
      const res = await list(project, `?search=${encodeURIComponent('0%')}`);
      expect(res.status).to.equal(200);
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([percent]);
      expect(res.body.total).to.equal(1);
    });

    it('4.3 search: when the search contains _, then _ matches only itself ("a_b" finds "a_b", not "axb")', async () => {
      const project = await freshProject();
      const [underscore] = await createTimed(project, [{ title: 'rename a_b' }, { title: 'rename axb' }]);
      const res = await list(project, `?search=${encodeURIComponent('a_b')}`);
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([underscore]);
      expect(res.body.total).to.equal(1);
    });

    it('4.3 search: when the search contains a backslash, then it matches only a backslash', async () => {
      const project = await freshProject();
      const [backslash, , percent] = await createTimed(project, [{ title: 'path\\to\\file' }, { title: 'pathtofile' }, { title: 'path%to' }]);
      const escaped = await list(project, `?search=${encodeURIComponent('h\\t')}`);
      expect(escaped.status).to.equal(200);
      expect(escaped.body.items.map((item: { id: string }) => item.id)).to.deep.equal([backslash]);
      const lone = await list(project, `?search=${encodeURIComponent('\\')}`);
      expect(lone.status).to.equal(200);
      expect(lone.body.items.map((item: { id: string }) => item.id)).to.deep.equal([backslash]);
      const percentOnly = await list(project, `?search=${encodeURIComponent('%')}`);
      expect(percentOnly.body.items.map((item: { id: string }) => item.id)).to.deep.equal([percent]);
    });

    it('4.3 search: a match never spans the title and the description, even for a search that holds the character joining them in the search index', async () => {
      const project = await freshProject();
      const [joined, , inDescription] = await createTimed(project, [
        { title: 'one\u001ftwo' },
        { title: 'Split one', description: 'two halves' },
        { title: 'Half one', description: 'one two' },
      ]);
      // "one" ends the second item's title and "two" starts its description: not one match.
      expect(await listIds(project, `?search=${encodeURIComponent('one two')}`)).to.deep.equal([inDescription]);
      expect((await list(project, `?search=${encodeURIComponent('one\u001ftwo')}`)).body).to.deep.include({ total: 1 });
      expect(await listIds(project, `?search=${encodeURIComponent('ONE\u001fTWO')}`)).to.deep.equal([joined]);
      expect(await listIds(project, `?search=${encodeURIComponent('one\u001ftwo')}&sortBy=votes`)).to.deep.equal([joined]);
    });

    it('4.3 sortBy newest: when sortBy=newest, then items come newest first', async () => {
      const project = await freshProject();
      const ids = await createTimed(project, [{ title: 'n1' }, { title: 'n2' }, { title: 'n3' }]);
      expect(await listIds(project, '?sortBy=newest')).to.deep.equal([...ids].reverse());
    });

    it('4.3 sortBy oldest: when sortBy=oldest, then items come oldest first', async () => {
      const project = await freshProject();
      const ids = await createTimed(project, [{ title: 'o1' }, { title: 'o2' }, { title: 'o3' }]);
      expect(await listIds(project, '?sortBy=oldest')).to.deep.equal(ids);
    });

    it('4.3 sortBy votes: when sortBy=votes, then items come most votes first, ties by newest', async () => {
      const project = await freshProject();
      const [a, b, c, d] = await createTimed(project, [{ title: 'v-a' }, { title: 'v-b' }, { title: 'v-c' }, { title: 'v-d' }]);
      // Each item has the submission vote; b gets two more, a one more: b 3, a 2, c 1, d 1.
      await vote(project, b!, 'voter-1');
      await vote(project, b!, 'voter-2');
      await vote(project, a!, 'voter-1');
      const res = await list(project, '?sortBy=votes');
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([b, a, d, c]);
      expect(res.body.items.map((item: { voteCount: number }) => item.voteCount)).to.deep.equal([3, 2, 1, 1]);
    });

    it('4.3 sortBy comments: when sortBy=comments, then items come most comments first, ties by newest', async () => {
      const project = await freshProject();
      const [a, b, c, d] = await createTimed(project, [{ title: 'c-a' }, { title: 'c-b' }, { title: 'c-c' }, { title: 'c-d' }]);
      await comment(project, c!, 'one');
      await comment(project, c!, 'two');
      await comment(project, a!, 'one');
      const res = await list(project, '?sortBy=comments');
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([c, a, d, b]);
      expect(res.body.items.map((item: { commentCount: number }) => item.commentCount)).to.deep.equal([2, 1, 0, 0]);
    });

    it('4.3 sortBy votes: when a vote is withdrawn, then the order follows the new counts', async () => {
      const project = await freshProject();
      const [a, b] = await createTimed(project, [{ title: 'w-a' }, { title: 'w-b' }]);
      await vote(project, a!, 'flip');
      expect(await listIds(project, '?sortBy=votes')).to.deep.equal([a, b]);
      const undo = await request(project, 'POST', `/api/v1/feedback/${a}/vote`, { body: { endUser: { externalId: 'flip' } } });
      expect(undo.body.voted).to.equal(false);
      // Now both have one vote: ties by newest.
      expect(await listIds(project, '?sortBy=votes')).to.deep.equal([b, a]);
    });

    it('2.2 voteCount: when items receive votes, then the list shows each item’s vote count', async () => {
      const project = await freshProject();
      const [a, b] = await createTimed(project, [{ title: 'count-a' }, { title: 'count-b', endUser: { externalId: 'owner' } }]);
      await vote(project, a!, 'fan-1');
      await vote(project, a!, 'fan-2');
      await vote(project, a!, 'fan-3');
      const anonymous = await request(project, 'POST', `/api/v1/feedback/${a}/vote`, { body: {} });
      // The anonymous submission vote of `a` is this caller's IP: the toggle removes it.
      expect(anonymous.body).to.deep.equal({ voted: false, voteCount: 3 });
      const res = await list(project);
      const counts = Object.fromEntries(res.body.items.map((item: { id: string; voteCount: number }) => [item.id, item.voteCount]));
      expect(counts).to.deep.equal({ [a!]: 3, [b!]: 1 });
    });

    it('2.2 commentCount: when items receive comments, then the list shows each item’s comment count', async () => {
      const project = await freshProject();
      const [a, b] = await createTimed(project, [{ title: 'cc-a' }, { title: 'cc-b' }]);
      await comment(project, b!, 'first');
      await comment(project, b!, 'second');
      const res = await list(project);
      const counts = Object.fromEntries(res.body.items.map((item: { id: string; commentCount: number }) => [item.id, item.commentCount]));
      expect(counts).to.deep.equal({ [a!]: 0, [b!]: 2 });
    });

    for (const sortBy of SORTS) {
      it(`4.3 pagination (${sortBy}): when 25 items with equal times and counts are walked 7 at a time, then every id appears exactly once in a stable order`, async () => {
        const project = await freshProject();
        const ids = await Promise.all(Array.from({ length: 25 }, (_, i) => create(project, { title: `Walk ${i}` })));
        // One creation time for all: the order then rests entirely on the tie-breaks.
        const at = new Date(Date.UTC(2025, 5, 1));
        for (const id of ids) await setCreatedAt(id, at);

        const walked: string[] = [];
        for (let page = 1; page <= 4; page++) {
          const res = await list(project, `?sortBy=${sortBy}&limit=7&page=${page}`);
          expect(res.status).to.equal(200);
          expect(res.body).to.include({ total: 25, page, limit: 7, totalPages: 4 });
          expect(res.body.items).to.have.length(page < 4 ? 7 : 4);
          walked.push(...res.body.items.map((item: { id: string }) => item.id));
        }
        expect(walked).to.have.length(25);
        expect(new Set(walked).size).to.equal(25);
        expect([...walked].sort()).to.deep.equal([...ids].sort());
        // The pages, put together, are the one-page list.
        expect(await listIds(project, `?sortBy=${sortBy}&limit=100`)).to.deep.equal(walked);
      });
    }

    it('4.3 pagination: when items have distinct times, then the pages of newest follow on without gaps or overlaps', async () => {
      const project = await freshProject();
      const ids = await createTimed(project, Array.from({ length: 10 }, (_, i) => ({ title: `Seq ${i}` })));
      const newest = [...ids].reverse();
      expect(await listIds(project, '?limit=4&page=1')).to.deep.equal(newest.slice(0, 4));
      expect(await listIds(project, '?limit=4&page=2')).to.deep.equal(newest.slice(4, 8));
      expect(await listIds(project, '?limit=4&page=3')).to.deep.equal(newest.slice(8, 10));
    });

    it('4.3 pagination: when the page is past the end, then items is empty and total still counts the matches', async () => {
      const project = await freshProject();
      await createTimed(project, Array.from({ length: 3 }, (_, i) => ({ title: `Few ${i}` })));
      const res = await list(project, '?page=5&limit=2');
      expect(res.status).to.equal(200);
      expect(res.body.items).to.deep.equal([]);
      expect(res.body).to.include({ total: 3, page: 5, limit: 2, totalPages: 2 });
    });

    it('4.3 pagination: when totals do not divide evenly, then totalPages is total / limit rounded up', async () => {
      const project = await freshProject();
      await createTimed(project, Array.from({ length: 7 }, (_, i) => ({ title: `Ceil ${i}` })));
      for (const [limit, pages] of [[1, 7], [2, 4], [3, 3], [7, 1], [8, 1], [100, 1]] as const) {
        const res = await list(project, `?limit=${limit}`);
        expect(res.body, `limit ${limit}`).to.include({ total: 7, limit, totalPages: pages });
      }
    });

    it('8 page size: when limit=100, then it is accepted and returns up to 100 items', async () => {
      const project = await freshProject();
      await Promise.all(Array.from({ length: 101 }, (_, i) => create(project, { title: `Hundred ${i}` })));
      const res = await list(project, '?limit=100');
      expect(res.status).to.equal(200);
      expect(res.body.items).to.have.length(100);
      expect(res.body).to.include({ total: 101, limit: 100, totalPages: 2 });
      const rest = await list(project, '?limit=100&page=2');
      expect(rest.body.items).to.have.length(1);
    });

    it('8 page size: when no limit is given, then at most 20 items are returned', async () => {
      const project = await freshProject();
      await Promise.all(Array.from({ length: 21 }, (_, i) => create(project, { title: `Twenty ${i}` })));
      const res = await list(project);
      expect(res.body.items).to.have.length(20);
      expect(res.body).to.include({ total: 21, limit: 20, totalPages: 2 });
    });

    const invalid: Array<[string, string]> = [
      ['status', 'bogus'],
      ['status', 'planned,bogus'],
      ['status', 'NEW'],
      ['type', 'feature'],
      ['type', 'bug,feature'],
      ['sortBy', 'popular'],
      ['sortBy', 'NEWEST'],
      ['page', '0'],
      ['page', '-1'],
      ['page', 'abc'],
      ['page', '1.5'],
      ['limit', '0'],
      ['limit', '101'],
      ['limit', '-1'],
      ['limit', 'abc'],
      ['limit', '1.5'],
    ];
    for (const [name, value] of invalid) {
      const spec = name === 'limit' ? '8 page size' : '7 validation';
      it(`${spec}: when ${name}=${value}, then it is a 400 "Invalid input" with fieldErrors.${name}`, async () => {
        const res = await request(server, 'GET', `/api/v1/feedback?${name}=${encodeURIComponent(value)}`);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.equal('Invalid input');
        expect(res.body.details.formErrors).to.be.an('array');
        expect(res.body.details.fieldErrors).to.have.all.keys(name);
        expect(res.body.details.fieldErrors[name]).to.be.an('array').that.is.not.empty;
        // The message names the parameter (a response that failed the server's own contract check would not).
        expect(res.body.details.fieldErrors[name].join(' ').toLowerCase()).to.include(name.toLowerCase());
      });
    }

    for (const query of ['status=new,', 'status=,new', 'status=new,,closed', 'status=new&status=planned,', 'type=bug,', 'type=,']) {
      const name = query.slice(0, query.indexOf('='));
      it(`regression (issue 24, accepted although the OpenAPI enums refuse it): when ${query} has an empty entry, then it is a 400 "Invalid input" with the message under fieldErrors.${name}`, async () => {
        const res = await request(server, 'GET', `/api/v1/feedback?${query}`);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body).to.deep.equal({
          error: 'Invalid input',
          details: { formErrors: [], fieldErrors: { [name]: [`${name} has an empty entry: separate values with one comma, and none at either end`] } },
        });
      });
    }

    it('4.3 filters: when status or type is given with an empty value, then it counts as not given (not as an empty entry)', async () => {
      for (const query of ['status=', 'type=', 'status=%20&type=']) {
        const res = await request(server, 'GET', `/api/v1/feedback?${query}&limit=1`);
        expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(200);
      }
    });

    it('7 validation: when status is invalid, then the message lists the allowed statuses', async () => {
      const res = await request(server, 'GET', '/api/v1/feedback?status=bogus');
      const message: string = res.body.details.fieldErrors.status[0];
      for (const status of ['new', 'under-review', 'planned', 'in-progress', 'completed', 'closed']) expect(message).to.include(status);
    });

    it('7 validation: when type is invalid, then the message lists bug, idea, question, other', async () => {
      const res = await request(server, 'GET', '/api/v1/feedback?type=feature');
      const message: string = res.body.details.fieldErrors.type[0];
      for (const type of ['bug', 'idea', 'question', 'other']) expect(message).to.include(type);
    });

    it('7 validation: when several parameters are invalid at once, then one 400 names each of them', async () => {
      const res = await request(server, 'GET', '/api/v1/feedback?status=x&type=y&sortBy=z&page=0&limit=101');
      expect(res.status).to.equal(400);
      expect(res.body.details.fieldErrors).to.have.all.keys('status', 'type', 'sortBy', 'page', 'limit');
    });

    it('4.3 projects: when another project has items, then they never appear in this project’s list, search or total', async () => {
      const mine = await freshProject();
      const theirs = await freshProject();
      const [own] = await createTimed(mine, [{ title: 'Shared words here' }]);
      const [foreign] = await createTimed(theirs, [{ title: 'Shared words there' }, { title: 'Only theirs' }]);
      const res = await list(mine, '?limit=100');
      expect(res.body.total).to.equal(1);
      expect(res.body.items.map((item: { id: string }) => item.id)).to.deep.equal([own]);
      const searched = await list(mine, '?search=shared');
      expect(searched.body.items.map((item: { id: string }) => item.id)).to.deep.equal([own]);
      expect(searched.body.total).to.equal(1);
      for (const sortBy of SORTS) {
        const ids = await listIds(mine, `?sortBy=${sortBy}`);
        expect(ids, sortBy).to.deep.equal([own]);
        expect(ids).not.to.include(foreign);
      }
      const other = await list(theirs);
      expect(other.body.total).to.equal(2);
      expect(other.body.items.map((item: { id: string }) => item.id)).not.to.include(own);
    });
  });
}
