import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { FeedbackClient } from '@feedbackd/sdk';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type Caller = { url: string; apiKey: string };

/** Subscriptions kept as a side effect of taking part, and the explicit choices (issue 40, docs/notifications.md). */
for (const backend of backends()) {
  describe(`subscriptions (${backend.name})`, () => {
    const server = withServer(backend);
    let ops: Caller;
    let client: FeedbackClient;
    before(async () => {
      ops = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
      client = new FeedbackClient({ baseUrl: server.url, apiKey: ops.apiKey, maxRetries: 0 });
    });
    after(async () => client?.close());
    afterEach(function () {
      if (this.currentTest?.state === 'failed') console.log(server.logs.filter((line) => line.startsWith('ERROR')).join('\n'));
    });

    /** A fresh externalId, so each test has its own people. */
    const person = (name: string) => `${name}-${randomUUID()}`;

    async function submit(title: string, externalId?: string, caller: Caller = server): Promise<string> {
      const res = await request(caller, 'POST', '/api/v1/feedback', { body: { title, ...(externalId ? { endUser: { externalId } } : {}) } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.feedback.id;
    }
    async function vote(id: string, externalId?: string): Promise<boolean> {
      const res = await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: externalId ? { endUser: { externalId } } : {} });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.voted;
    }
    async function comment(id: string, externalId?: string): Promise<void> {
      const body = externalId ? { content: 'Me too', endUser: { externalId } } : { content: 'A note', team: { name: 'Ana' } };
      const res = await request(externalId ? server : ops, 'POST', `/api/v1/feedback/${id}/comments`, { body });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    /** The item's subscribers who are told, by externalId, with their reasons. */
    async function subscribers(id: string): Promise<Record<string, string[]>> {
      const res = await request(ops, 'GET', `/api/v1/feedback/${id}/subscribers?limit=500`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return Object.fromEntries(res.body.items.map((s: { externalId: string; reasons: string[] }) => [s.externalId, s.reasons]));
    }
    async function subscribed(id: string, externalId: string): Promise<boolean> {
      const res = await request(server, 'GET', `/api/v1/feedback/${id}/subscription?endUserId=${encodeURIComponent(externalId)}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.subscribed;
    }
    const rowsOf = (id: string) => server.sql<{ reasons: number; unsubscribed: boolean }>('select reasons, unsubscribed_at is not null as unsubscribed from subscriptions where feedback_id = ?', [id]);

    it('when an identified end user submits, votes or comments, then each is subscribed with that reason, and anonymous callers and the team are not', async () => {
      const [author, voter, commenter] = [person('author'), person('voter'), person('commenter')];
      const id = await submit('Dark mode', author);
      expect(await vote(id, voter)).to.equal(true);
      await vote(id);
      await comment(id, commenter);
      await comment(id);
      expect(await subscribers(id)).to.deep.equal({ [author]: ['submitted', 'voted'], [voter]: ['voted'], [commenter]: ['commented'] });
      expect(await rowsOf(id)).to.have.length(3);
      // The anonymous submission: no row at all.
      const anonymous = await submit('Anonymous idea');
      expect(await rowsOf(anonymous)).to.deep.equal([]);
    });

    it('when votes arrive together (one batch statement), then every identified voter is subscribed', async () => {
      const id = await submit('Batch');
      const voters = Array.from({ length: 12 }, (_, i) => person(`batch${i}`));
      // Known users take the batch path (toggle_votes): identify them first.
      await Promise.all(voters.map((externalId) => request(server, 'POST', '/api/v1/identify', { body: { externalId } })));
      await Promise.all(voters.map((externalId) => vote(id, externalId)));
      expect(Object.keys(await subscribers(id)).sort()).to.deep.equal([...voters].sort());
    });

    it('when a voter takes the vote back, then the subscription goes, unless they also commented, which it keeps', async () => {
      const [voter, talker] = [person('voter'), person('talker')];
      const id = await submit('Export');
      await vote(id, voter);
      await vote(id, talker);
      await comment(id, talker);
      expect(await vote(id, voter)).to.equal(false);
      expect(await vote(id, talker)).to.equal(false);
      expect(await subscribers(id)).to.deep.equal({ [talker]: ['commented'] });
      expect(await rowsOf(id)).to.have.length(1);
    });

    it('when an end user unsubscribes from an item, then voting and commenting again do not subscribe them back, and subscribing does', async () => {
      const voter = person('voter');
      const id = await submit('Sticky');
      await vote(id, voter);
      await client.subscriptions.unsubscribe(id, voter);
      expect(await subscribed(id, voter)).to.equal(false);
      // The vote taken back leaves no reason, but the row stays: it records the unsubscribe.
      expect(await vote(id, voter)).to.equal(false);
      expect(await rowsOf(id)).to.deep.equal([{ reasons: 0, unsubscribed: true }]);
      expect(await vote(id, voter)).to.equal(true);
      await comment(id, voter);
      expect(await subscribed(id, voter)).to.equal(false);
      expect(await subscribers(id)).to.deep.equal({});
      expect(await client.subscriptions.subscribe(id, { externalId: voter })).to.deep.equal({ subscribed: true });
      expect(await subscribers(id)).to.deep.equal({ [voter]: ['voted', 'commented', 'chose'] });
    });

    it('when an end user subscribes without taking part, then they are subscribed by choice (created if new), and unsubscribing removes only that choice', async () => {
      const watcher = person('watcher');
      const id = await submit('Watch me');
      const res = await request(server, 'POST', `/api/v1/feedback/${id}/subscription`, { body: { endUser: { externalId: watcher, name: 'Wanda', email: 'wanda@example.com' } } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ subscribed: true });
      const list = await client.subscriptions.list(id);
      expect(list).to.include({ total: 1, page: 1, totalPages: 1 });
      expect(list.items[0]).to.include({ externalId: watcher, name: 'Wanda', email: 'wanda@example.com' });
      expect(list.items[0]!.reasons).to.deep.equal(['chose']);
      const off = await request(server, 'POST', `/api/v1/feedback/${id}/unsubscribe`, { body: { endUserId: watcher } });
      expect(off.status, JSON.stringify(off.body)).to.equal(200);
      expect(off.body).to.deep.equal({ subscribed: false });
      expect(await subscribed(id, watcher)).to.equal(false);
    });

    it('when an end user unsubscribes from the whole project, then no item tells them, new ones neither, until they choose one item again', async () => {
      const fan = person('fan');
      const [a, b] = [await submit('A', fan), await submit('B')];
      await comment(b, fan);
      const res = await request(server, 'POST', '/api/v1/unsubscribe', { body: { endUserId: fan } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ unsubscribed: true });
      const c = await submit('C', fan);
      expect([await subscribed(a, fan), await subscribed(b, fan), await subscribed(c, fan)]).to.deep.equal([false, false, false]);
      expect(await subscribers(c)).to.deep.equal({});
      await client.subscriptions.subscribe(b, { externalId: fan });
      expect([await subscribed(a, fan), await subscribed(b, fan), await subscribed(c, fan)]).to.deep.equal([false, true, false]);
      // Leaving the project again takes back that choice too.
      await client.subscriptions.unsubscribe(null, fan);
      expect(await subscribed(b, fan)).to.equal(false);
    });

    it('when an item is merged, then its subscribers follow the target, reasons OR-ed and unsubscribes kept', async () => {
      const [both, onlyDup, quitter] = [person('both'), person('only'), person('quitter')];
      const target = await submit('Target', both);
      const duplicate = await submit('Duplicate');
      await vote(duplicate, both);
      await comment(duplicate, both);
      await vote(duplicate, onlyDup);
      await vote(duplicate, quitter);
      await client.subscriptions.unsubscribe(duplicate, quitter);
      const merged = await request(ops, 'POST', `/api/v1/feedback/${duplicate}/merge`, { body: { intoId: target } });
      expect(merged.status, JSON.stringify(merged.body)).to.equal(200);
      expect(await subscribers(target)).to.deep.equal({ [both]: ['submitted', 'voted', 'commented'], [onlyDup]: ['voted'] });
      expect(await subscribed(target, quitter)).to.equal(false);
    });

    it('when the detail is read with an endUserId, then it says userIsSubscribed; without one, the answer has no such field', async () => {
      const [voter, stranger] = [person('voter'), person('stranger')];
      const id = await submit('Detail');
      await vote(id, voter);
      const mine = await request(server, 'GET', `/api/v1/feedback/${id}?endUserId=${voter}`);
      expect(mine.body.feedback).to.include({ userHasVoted: true, userIsSubscribed: true });
      // After the spec's fields (the last is `comments`), so they keep the spec's order.
      expect(Object.keys(mine.body.feedback).indexOf('userIsSubscribed')).to.equal(Object.keys(mine.body.feedback).indexOf('comments') + 1);
      const theirs = await request(server, 'GET', `/api/v1/feedback/${id}?endUserId=${stranger}`);
      expect(theirs.body.feedback).to.include({ userHasVoted: false, userIsSubscribed: false });
      const plain = await request(server, 'GET', `/api/v1/feedback/${id}`);
      expect(plain.body.feedback).to.not.have.property('userIsSubscribed');
      const secret = await request(ops, 'GET', `/api/v1/feedback/${id}?endUserId=${voter}`);
      expect(secret.body.feedback).to.include({ userIsSubscribed: true });
      expect(secret.body.feedback).to.have.property('statusHistory');
      expect((await client.feedback.get(id, { endUserId: voter })).userIsSubscribed).to.equal(true);
    });

    it('when a public key lists subscribers, then it is refused with 403, and an unknown key with 401', async () => {
      const id = await submit('Private list');
      const refused = await request(server, 'GET', `/api/v1/feedback/${id}/subscribers`);
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({ error: 'This operation requires a secret key' });
      const unknown = await request(server, 'GET', `/api/v1/feedback/${id}/subscribers`, { apiKey: 'sk_live_nope' });
      expect(unknown.status).to.equal(401);
      expect(unknown.body).to.have.property('error');
    });

    it('when another project names an item or an end user, then it sees nothing of this project: 404 on the item, and its own people are apart', async () => {
      const shared = person('shared');
      const id = await submit('Ours', shared);
      const theirs = { url: server.url, apiKey: await server.newKey('subscriptions-other', 'public') };
      const theirsSecret = { url: server.url, apiKey: await server.newKey('subscriptions-other', 'secret') };
      for (const [caller, method, path, body] of [
        [theirsSecret, 'GET', `/api/v1/feedback/${id}/subscribers`, undefined],
        [theirs, 'GET', `/api/v1/feedback/${id}/subscription?endUserId=${shared}`, undefined],
        [theirs, 'POST', `/api/v1/feedback/${id}/subscription`, { endUser: { externalId: shared } }],
        [theirs, 'POST', `/api/v1/feedback/${id}/unsubscribe`, { endUserId: shared }],
      ] as const) {
        const res = await request(caller, method, path, { body });
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(res.body).to.deep.equal({ error: 'Feedback not found' });
      }
      // The same externalId in the other project is another person: leaving that project leaves this one alone.
      await submit('Theirs', shared, theirs);
      expect((await request(theirs, 'POST', '/api/v1/unsubscribe', { body: { endUserId: shared } })).status).to.equal(200);
      expect(await subscribed(id, shared)).to.equal(true);
    });

    it('when the input is wrong, then the answers are 4xx with the contract error shape, never 5xx', async () => {
      const id = await submit('Checks');
      const cases: [string, string, unknown, number][] = [
        ['POST', `/api/v1/feedback/${id}/subscription`, {}, 400],
        ['POST', `/api/v1/feedback/${id}/subscription`, { endUser: { externalId: '' } }, 400],
        ['POST', `/api/v1/feedback/${id}/unsubscribe`, {}, 400],
        ['GET', `/api/v1/feedback/${id}/subscription`, undefined, 400],
        ['POST', `/api/v1/feedback/not-a-uuid/subscription`, { endUser: { externalId: 'x' } }, 404],
        ['POST', `/api/v1/feedback/${UNKNOWN_ID}/subscription`, { endUser: { externalId: 'x' } }, 404],
        ['POST', `/api/v1/feedback/${id}/unsubscribe`, { endUserId: person('never-seen') }, 404],
        ['POST', '/api/v1/unsubscribe', { endUserId: person('never-seen') }, 404],
      ];
      for (const [method, path, body, status] of cases) {
        const res = await request(server, method, path, { body });
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).to.equal(status);
        expect(res.body).to.have.property('error').that.is.a('string');
      }
      const paged = await request(ops, 'GET', `/api/v1/feedback/${id}/subscribers?limit=0`);
      expect(paged.status).to.equal(400);
      expect(paged.body).to.have.property('details');
    });

    it('when an item has more subscribers than a page, then the pages split them in order without overlap', async () => {
      const id = await submit('Popular');
      const voters = Array.from({ length: 7 }, (_, i) => person(`p${i}`));
      for (const voter of voters) await vote(id, voter);
      const first = await client.subscriptions.list(id, { limit: 3 });
      const third = await client.subscriptions.list(id, { limit: 3, page: 3 });
      expect(first).to.include({ total: 7, totalPages: 3, limit: 3, page: 1 });
      expect(first.items.map((s) => s.externalId)).to.deep.equal(voters.slice(0, 3));
      expect(third.items.map((s) => s.externalId)).to.deep.equal(voters.slice(6));
    });
  });
}
