import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { FeedbackClient } from '@feedbackd/sdk';
import { verifyWebhook, type WebhookEventOf } from '@feedbackd/sdk/webhooks';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';
import { signatureHeaders, startReceiver } from '../helpers/webhook-receiver.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const NOT_FOUND = { error: 'Changelog entry not found' };

type Caller = { url: string; apiKey: string };

/** The changelog's API (issue 40 item 4, docs/changelog.md): writes with a secret key, reads with any. */
for (const backend of backends()) {
  describe(`changelog API (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });
    let ops: Caller;
    let other: Caller;
    let otherPublic: Caller;
    let client: FeedbackClient;
    before(async () => {
      ops = { url: server.url, apiKey: await server.newKey(undefined, 'secret') };
      other = { url: server.url, apiKey: await server.newKey('changelog-other', 'secret') };
      otherPublic = { url: server.url, apiKey: await server.newKey('changelog-other', 'public') };
      client = new FeedbackClient({ baseUrl: server.url, apiKey: ops.apiKey, maxRetries: 0 });
    });
    after(async () => client?.close());
    afterEach(function () {
      if (this.currentTest?.state === 'failed') console.log(server.logs.filter((line) => line.startsWith('ERROR')).join('\n'));
    });

    async function submit(title: string, caller: Caller = server): Promise<string> {
      const res = await request(caller, 'POST', '/api/v1/feedback', { body: { title } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.feedback.id;
    }
    const publicList = async (caller: Caller = server) => (await request(caller, 'GET', '/api/v1/changelog?limit=100')).body.items.map((entry: { id: string }) => entry.id);

    it('when a secret key writes a draft, then it is listed for secret keys only, and updating and publishing it shows it to public keys with its items', async () => {
      const a = await submit('Dark mode');
      const b = await submit('Night theme');
      const created = await request(ops, 'POST', '/api/v1/changelog', { body: { title: '  Dark mode  ', body: 'It is **here**.', links: [a, b, a] } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const entry = created.body.entry;
      expect(entry).to.include({ title: 'Dark mode', body: 'It is **here**.', state: 'draft', publishedAt: null });
      expect(entry.items.map((item: { id: string }) => item.id)).to.deep.equal([a, b]);
      expect(await publicList()).to.not.include(entry.id);
      expect((await client.changelog.list({ limit: 100 })).items.map((e) => e.id)).to.include(entry.id);

      const updated = await client.changelog.update(entry.id, { title: 'Dark mode, at last', links: [b] });
      expect(updated).to.include({ title: 'Dark mode, at last', body: 'It is **here**.', state: 'draft' });
      expect(updated.items).to.deep.equal([{ id: b, title: 'Night theme', status: 'new' }]);

      const published = await client.changelog.publish(entry.id);
      expect(published.state).to.equal('published');
      expect(Date.parse(published.publishedAt!)).to.be.closeTo(Date.now(), 60_000);
      const page = (await request(server, 'GET', '/api/v1/changelog?limit=100')).body;
      expect(page.items.find((e: { id: string }) => e.id === entry.id)).to.deep.include({ title: 'Dark mode, at last', state: 'published' });
      expect(page).to.include({ page: 1, limit: 100 });
      expect(page.total).to.equal(page.items.length);

      // Published once: a second publish changes nothing, not even its time.
      const again = await client.changelog.publish(entry.id, { publishAt: '2030-01-01T00:00:00Z' });
      expect(again.publishedAt).to.equal(published.publishedAt);
    });

    it('when an entry is scheduled, then public keys see it only from its time on, and changelog.published is delivered once, verified by standardwebhooks', async () => {
      const receiver = await startReceiver();
      const { webhook, secret } = await client.webhooks.create({ url: receiver.url, events: ['changelog.published'] });
      try {
        const item = await submit('Export to CSV');
        const at = new Date(Date.now() + 2_500).toISOString();
        const entry = await client.changelog.create({ title: 'CSV export', body: 'Export *everything*.', links: [item], publishAt: at });
        expect(entry).to.include({ state: 'scheduled', publishedAt: at });
        expect(await publicList()).to.not.include(entry.id);
        expect(receiver.received).to.have.length(0);

        await until(async () => (await publicList()).includes(entry.id), 15_000, 'the scheduled entry to appear');
        expect(Date.now()).to.be.at.least(Date.parse(at));
        await until(() => receiver.received.length >= 1, 15_000, 'the changelog.published delivery');
        const delivery = receiver.received[0]!;
        new Webhook(secret).verify(delivery.body, signatureHeaders(delivery.headers));
        const event = verifyWebhook({ body: delivery.body, headers: delivery.headers as Record<string, string>, secrets: secret }) as WebhookEventOf<'changelog.published'>;
        expect(event.type).to.equal('changelog.published');
        expect(event.data.entry).to.deep.equal({ id: entry.id, title: 'CSV export', body: 'Export *everything*.', publishedAt: at, items: [{ id: item, title: 'Export to CSV', status: 'new' }] });

        // Publishing it again, and further sweeps, announce nothing more.
        await client.changelog.publish(entry.id);
        const [{ n }] = (await server.sql<{ n: number }>(`select count(*)::int as n from webhook_events where type = 'changelog.published' and data->'entry'->>'id' = ?`, [entry.id])) as [{ n: number }];
        expect(n).to.equal(1);
      } finally {
        await client.webhooks.delete(webhook.id);
        await receiver.close();
      }
    });

    it('when an entry is published with complete, then its items move to completed through the status change, with history and feedback.status_changed events', async () => {
      const a = await submit('Keyboard shortcuts');
      const b = await submit('Shortcut cheat sheet');
      await client.admin.update(b, { status: 'completed' });
      const receiver = await startReceiver();
      const { webhook } = await client.webhooks.create({ url: receiver.url, events: ['feedback.status_changed', 'changelog.published'] });
      try {
        const entry = await client.changelog.create({ title: 'Shortcuts', body: 'Press ?', links: [a, b], publish: true, complete: true, actor: 'Ada' });
        expect(entry.state).to.equal('published');
        expect(entry.items.map((item) => item.status)).to.deep.equal(['completed', 'completed']);
        const history = (await request(ops, 'GET', `/api/v1/feedback/${a}`)).body.feedback.statusHistory;
        expect(history.map((h: { from: string; to: string; actor: string }) => [h.from, h.to, h.actor])).to.deep.equal([['new', 'completed', 'Ada']]);
        await until(() => receiver.received.length >= 2, 15_000, 'two deliveries');
        const types = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { feedback?: { id: string } } });
        // b was already completed: one status change (a's), and the announcement.
        expect(types.map((t) => t.type).sort()).to.deep.equal(['changelog.published', 'feedback.status_changed']);
        expect(types.find((t) => t.type === 'feedback.status_changed')!.data.feedback!.id).to.equal(a);
      } finally {
        await client.webhooks.delete(webhook.id);
        await receiver.close();
      }
    });

    it('when an entry is deleted, then it is gone from every list and a second delete is 404; its items stay', async () => {
      const item = await submit('Stays');
      const entry = await client.changelog.create({ title: 'Gone soon', body: 'x', links: [item], publish: true });
      expect(await client.changelog.delete(entry.id)).to.deep.equal({ id: entry.id, deleted: true });
      expect(await publicList()).to.not.include(entry.id);
      expect((await request(ops, 'DELETE', `/api/v1/changelog/${entry.id}`)).body).to.deep.equal(NOT_FOUND);
      expect((await request(server, 'GET', `/api/v1/feedback/${item}`)).status).to.equal(200);
    });

    it('when the input is invalid, then 400 with the spec error shape and a message per field, and nothing is written', async () => {
      const [{ n: before }] = (await server.sql<{ n: number }>('select count(*)::int as n from changelog_entries')) as [{ n: number }];
      const cases: Array<[unknown, string]> = [
        [{ body: 'no title' }, 'title'],
        [{ title: 'x'.repeat(201), body: '' }, 'title'],
        [{ title: 'T' }, 'body'],
        [{ title: 'T', body: '', publishAt: 'tomorrow' }, 'publishAt'],
        [{ title: 'T', body: '', links: [UNKNOWN_ID] }, 'links'],
        [{ title: 'T', body: '', links: ['not-an-id'] }, 'links'],
        [{ title: 'T', body: '', complete: true }, 'complete'],
        [{ title: 'T', body: '', links: 'abc' }, 'links'],
      ];
      for (const [body, field] of cases) {
        const res = await request(ops, 'POST', '/api/v1/changelog', { body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error).to.equal('Invalid input');
        expect(res.body.details.formErrors).to.be.an('array');
        expect(res.body.details.fieldErrors[field], JSON.stringify(res.body)).to.be.an('array').that.is.not.empty;
      }
      const empty = await request(ops, 'PATCH', `/api/v1/changelog/${UNKNOWN_ID}`, { body: {} });
      expect(empty.status).to.equal(400);
      expect(empty.body.details.formErrors).to.deep.equal(['Give at least one of title, body or links']);
      const [{ n: after }] = (await server.sql<{ n: number }>('select count(*)::int as n from changelog_entries')) as [{ n: number }];
      expect(after).to.equal(before);
    });

    it('when a public key writes, then 403; when an id is unknown or malformed, then 404 "Changelog entry not found"', async () => {
      const refused = await request(server, 'POST', '/api/v1/changelog', { body: { title: 'T', body: '' } });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({ error: 'This operation requires a secret key' });
      for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
        expect((await request(ops, 'PATCH', `/api/v1/changelog/${id}`, { body: { title: 'T' } })).body).to.deep.equal(NOT_FOUND);
        expect((await request(ops, 'POST', `/api/v1/changelog/${id}/publish`, { body: {} })).body).to.deep.equal(NOT_FOUND);
        expect((await request(ops, 'DELETE', `/api/v1/changelog/${id}`)).status).to.equal(404);
      }
    });

    it("when another project's key reaches for an entry or links an item of this project, then it sees nothing: 404 for the entry, 400 for the link, and neither list shows the other's entries", async () => {
      const item = await submit('Ours');
      const ours = await client.changelog.create({ title: 'Ours', body: '', links: [item], publish: true });
      expect((await request(other, 'PATCH', `/api/v1/changelog/${ours.id}`, { body: { title: 'Theirs now' } })).body).to.deep.equal(NOT_FOUND);
      expect((await request(other, 'POST', `/api/v1/changelog/${ours.id}/publish`, { body: {} })).status).to.equal(404);
      expect((await request(other, 'DELETE', `/api/v1/changelog/${ours.id}`)).status).to.equal(404);
      const linked = await request(other, 'POST', '/api/v1/changelog', { body: { title: 'T', body: '', links: [item] } });
      expect(linked.status).to.equal(400);
      expect(linked.body.details.fieldErrors.links).to.deep.equal([`No feedback item ${item} in this project`]);
      const theirs = await request(other, 'POST', '/api/v1/changelog', { body: { title: 'Theirs', body: '', publish: true } });
      expect(await publicList(otherPublic)).to.deep.equal([theirs.body.entry.id]);
      expect(await publicList()).to.include(ours.id).and.not.include(theirs.body.entry.id);
      expect((await client.changelog.list({ limit: 100 })).items.map((e) => e.title)).to.include('Ours').and.not.include('Theirs');
    });

    it('when entries are listed, then the newest publication comes first, drafts first for a secret key, and pages split them', async () => {
      const older = await client.changelog.create({ title: 'Older', body: '', publishAt: '2026-01-01T00:00:00.000Z' });
      const newer = await client.changelog.create({ title: 'Newer', body: '', publishAt: '2026-02-01T00:00:00.000Z' });
      const draft = await client.changelog.create({ title: 'Draft', body: '' });
      const ids = (await client.changelog.list({ limit: 100 })).items.map((e) => e.id);
      expect(ids.indexOf(draft.id)).to.be.below(ids.indexOf(newer.id));
      expect(ids.indexOf(newer.id)).to.be.below(ids.indexOf(older.id));
      const publicIds = await publicList();
      expect(publicIds.indexOf(newer.id)).to.be.below(publicIds.indexOf(older.id));
      const page1 = (await request(server, 'GET', '/api/v1/changelog?limit=1&page=1')).body;
      const page2 = (await request(server, 'GET', '/api/v1/changelog?limit=1&page=2')).body;
      expect(page1.totalPages).to.equal(page1.total);
      expect(page1.items[0].id).to.not.equal(page2.items[0].id);
      expect((await request(server, 'GET', '/api/v1/changelog?limit=0')).status).to.equal(400);
    });

    it('when an entry is published, then the board\'s changelog page shows it with its rendered body and items, its Atom feed has it, and its item\'s page says "Shipped in"', async () => {
      const item = await submit('Board shipping');
      const draft = await client.changelog.create({ title: 'Unseen draft', body: 'x', links: [item] });
      const entry = await client.changelog.create({ title: 'Shipped <now>', body: 'It is **here** <script>alert(1)</script>', links: [item], publish: true });
      const page = await fetch(`${server.url}/b/default/changelog`);
      expect(page.status).to.equal(200);
      const text = await page.text();
      expect(text).to.include(`id="entry-${entry.id}"`).and.include('Shipped &lt;now&gt;').and.include('<strong>here</strong>').and.include('&lt;script&gt;');
      expect(text).to.not.include('<script>alert(1)').and.not.include('Unseen draft');
      expect(text).to.include(`href="/b/default/items/${item}"`);
      const feed = await fetch(`${server.url}/b/default/changelog.atom`);
      expect(feed.headers.get('content-type')).to.equal('application/atom+xml; charset=utf-8');
      expect(await feed.text()).to.include(`<id>urn:uuid:${entry.id}</id>`);
      const itemPage = await (await fetch(`${server.url}/b/default/items/${item}`)).text();
      expect(itemPage).to.include(`href="/b/default/changelog#entry-${entry.id}"`).and.not.include(draft.id);
      expect((await fetch(`${server.url}/b/default/changelog?page=0`)).status).to.equal(400);
    });
  });
}
