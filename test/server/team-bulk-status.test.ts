import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { statementsDuring } from '../helpers/statement-count.js';
import { browse, sessionCookie, splitUndo } from '../helpers/team-forms.js';
import { request, withServer } from '../helpers/test-server.js';

/** The inbox's bulk status change (POST /team/items/status) as a set: its rows, its events, its reports and its cost. */

interface History {
  feedback_id: string;
  from_status: string;
  to_status: string;
  api_key_id: string | null;
  actor: string | null;
}

interface StatusEvent {
  feedback: { id: string; status: string; title: string } & Record<string, unknown>;
  from: string;
  to: string;
  actor: string | null;
}

for (const backend of backends()) {
  describe(`team bulk status change (${backend.name})`, () => {
    const server = withServer(backend);
    let secretKey: string;

    before(async () => {
      secretKey = await server.newKey(undefined, 'secret');
      // A subscriber, so the change writes its events; a pull endpoint, so nothing is sent anywhere.
      const listener = await request(server, 'POST', '/api/v1/webhooks/listen', { apiKey: secretKey, body: { forwardTo: 'http://localhost:4000/hooks', events: ['feedback.status_changed'] } });
      expect(listener.status, JSON.stringify(listener.body)).to.equal(201);
    });

    async function signIn(): Promise<{ cookie: string; session: { id: string; api_key_id: string } }> {
      const link = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: secretKey });
      expect(link.status, JSON.stringify(link.body)).to.equal(201);
      const cookie = sessionCookie(await browse(server, link.body.path));
      const [session] = await server.sql<{ id: string; api_key_id: string }>('select id::text, api_key_id::text from team_sessions order by created_at desc limit 1');
      return { cookie, session: session! };
    }

    async function apiItem(title: string, apiKey = server.apiKey): Promise<string> {
      const created = await request(server, 'POST', '/api/v1/feedback', { apiKey, body: { title } });
      expect(created.status).to.equal(201);
      return created.body.feedback.id as string;
    }

    const historyOf = (marker: string) =>
      server.sql<History>(
        `select h.feedback_id::text, h.from_status, h.to_status, h.api_key_id::text, h.actor
         from feedback_status_changes h join feedback f on f.id = h.feedback_id where f.title like ? order by h.id`,
        [`${marker}%`],
      );
    const eventsOf = async (marker: string) =>
      (await server.sql<{ data: StatusEvent }>(
        `select data from webhook_events where type = 'feedback.status_changed' and data->'feedback'->>'title' like ? order by created_at, id`,
        [`${marker}%`],
      )).map((row) => (typeof row.data === 'string' ? (JSON.parse(row.data) as StatusEvent) : row.data));

    it('when 100 items are changed at once, then each has its new status, one history row naming the session and its key and one event as the API writes it, in at most 10 statements', async () => {
      const marker = `hundred-${Date.now()}`;
      const ids: string[] = [];
      for (let i = 0; i < 100; i++) ids.push(await apiItem(`${marker} ${String(i).padStart(3, '0')}`));
      const { cookie, session } = await signIn();
      const back = `/team?search=${marker}`;

      const { result: changed, statements } = await statementsDuring(() =>
        browse(server, '/team/items/status', { method: 'POST', cookie, form: { id: [...ids].reverse(), status: 'planned', return: back } }),
      );
      expect(changed.status).to.equal(303);
      expect(splitUndo(changed.headers.get('location')).location).to.equal(`${back}&changed=100&to=planned`);
      expect(statements.length, `the request's statements:\n${statements.join('\n')}`).to.be.at.most(10);

      const statuses = await server.sql<{ id: string; status: string }>('select id::text, status from feedback where title like ?', [`${marker}%`]);
      expect(statuses.filter((row) => row.status !== 'planned'), 'items not moved').to.deep.equal([]);
      expect(statuses).to.have.length(100);
      const actor = `team session ${session.id}`;
      const history = await historyOf(marker);
      expect(history.map((row) => row.feedback_id).sort()).to.deep.equal([...ids].sort());
      for (const row of history) expect(row).to.deep.equal({ feedback_id: row.feedback_id, from_status: 'new', to_status: 'planned', api_key_id: session.api_key_id, actor });

      const events = await eventsOf(marker);
      expect(events.map((event) => event.feedback.id).sort()).to.deep.equal([...ids].sort());
      for (const event of events) expect(event).to.deep.include({ from: 'new', to: 'planned', actor });
      expect(events.every((event) => event.feedback.status === 'planned' && event.feedback.voteCount === 1)).to.equal(true);
      // The same event as a change through the API (one item, PATCH): the same fields.
      const single = await apiItem(`single-${marker}`);
      const { result: patch, statements: patchStatements } = await statementsDuring(() =>
        request(server, 'PATCH', `/api/v1/feedback/${single}`, { apiKey: secretKey, body: { status: 'planned', actor: 'Ada' } }),
      );
      expect(patch.status).to.equal(200);
      const change = (list: string[]) => list.filter((text) => text.includes('insert into feedback_status_changes'));
      expect(change(statements), 'the bulk change writes its history in one statement').to.have.length(1);
      expect(change(patchStatements), 'one statement for both doors').to.deep.equal(change(statements));
      const [patched] = await eventsOf(`single-${marker}`);
      expect(patched).to.deep.include({ from: 'new', to: 'planned', actor: 'Ada' });
      expect(Object.keys(events[0]!.feedback).sort()).to.deep.equal(Object.keys(patched!.feedback).sort());
      expect(Object.keys(events[0]!).sort()).to.deep.equal(Object.keys(patched!).sort());
      await expectCountersExact(server);
    });

    it('when some items are gone, of another project or already at the status, then the others change, the gone ones are reported missing, and the ones already there get no history row and no event', async () => {
      const marker = `mixed-${Date.now()}`;
      const fresh = [await apiItem(`${marker} a`), await apiItem(`${marker} b`), await apiItem(`${marker} c`)];
      const already = [await apiItem(`${marker} d`), await apiItem(`${marker} e`)];
      for (const id of already) expect((await request(server, 'PATCH', `/api/v1/feedback/${id}`, { apiKey: secretKey, body: { status: 'closed' } })).status).to.equal(200);
      const gone = await apiItem(`${marker} gone`);
      const foreignKey = await server.newKey('elsewhere', 'secret');
      const foreign = await apiItem(`${marker} foreign`, foreignKey);
      const { cookie } = await signIn();
      // Deleted after the inbox listed it, before the form was sent.
      expect((await request(server, 'DELETE', `/api/v1/feedback/${gone}`, { apiKey: secretKey })).status).to.equal(200);
      const historyBefore = await historyOf(marker);
      const eventsBefore = await eventsOf(marker);

      const changed = await browse(server, '/team/items/status', { method: 'POST', cookie, form: { id: [already[0]!, gone, fresh[2]!, foreign, fresh[0]!, already[1]!, fresh[1]!], status: 'closed' } });
      expect(changed.status).to.equal(303);
      expect(splitUndo(changed.headers.get('location')).location).to.equal('/team?changed=5&to=closed&missing=2');
      expect((await browse(server, changed.headers.get('location')!, { cookie })).text).to.include('5 items moved to Closed. 2 items could not be found (deleted or merged meanwhile).');

      const statuses = new Map((await server.sql<{ id: string; status: string }>('select id::text, status from feedback where title like ?', [`${marker}%`])).map((row) => [row.id, row.status]));
      for (const id of [...fresh, ...already]) expect(statuses.get(id), id).to.equal('closed');
      expect(statuses.get(foreign), 'another project\'s item is not reached').to.equal('new');
      expect(statuses.has(gone)).to.equal(false);
      const newHistory = (await historyOf(marker)).slice(historyBefore.length);
      expect(newHistory.map((row) => row.feedback_id).sort(), 'history for the items that really changed').to.deep.equal([...fresh].sort());
      expect(newHistory.every((row) => row.from_status === 'new' && row.to_status === 'closed')).to.equal(true);
      const newEvents = (await eventsOf(marker)).slice(eventsBefore.length);
      expect(newEvents.map((event) => event.feedback.id).sort(), 'events for the items that really changed').to.deep.equal([...fresh].sort());
      await expectCountersExact(server);
    });

    it('when two bulk changes of the same items, listed in opposite orders, run at once, then both finish and each item\'s history is one unbroken chain', async () => {
      const marker = `race-${Date.now()}`;
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push(await apiItem(`${marker} ${i}`));
      const { cookie } = await signIn();
      const [one, two, ...patches] = await Promise.all([
        browse(server, '/team/items/status', { method: 'POST', cookie, form: { id: ids, status: 'planned' } }),
        browse(server, '/team/items/status', { method: 'POST', cookie, form: { id: [...ids].reverse(), status: 'in-progress' } }),
        ...ids.slice(0, 10).map((id) => request(server, 'PATCH', `/api/v1/feedback/${id}`, { apiKey: secretKey, body: { status: 'completed' } })),
      ]);
      expect([one!.status, two!.status]).to.deep.equal([303, 303]);
      expect(patches.map((patch) => patch.status)).to.deep.equal(Array(10).fill(200));
      const history = await historyOf(marker);
      const statuses = new Map((await server.sql<{ id: string; status: string }>('select id::text, status from feedback where title like ?', [`${marker}%`])).map((row) => [row.id, row.status]));
      for (const id of ids) {
        const chain = history.filter((row) => row.feedback_id === id);
        expect(chain[0]?.from_status, id).to.equal('new');
        for (let i = 1; i < chain.length; i++) expect(chain[i]!.from_status, `${id} step ${i}`).to.equal(chain[i - 1]!.to_status);
        expect(chain.at(-1)!.to_status).to.equal(statuses.get(id));
      }
      await expectCountersExact(server);
    });

    it('when "Select all on this page" is sent without the script, then every item the page listed changes (and only those), with the rows ticked or not', async () => {
      const marker = `all-${Date.now()}`;
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(await apiItem(`${marker} ${i}`));
      const { cookie } = await signIn();
      const back = `/team?search=${marker}&limit=3`;
      const inbox = await browse(server, back, { cookie });
      const shown = [...inbox.text.matchAll(/<input type="hidden" name="shown" value="([0-9a-f-]{36})">/g)].map((m) => m[1]!);
      expect(shown, 'the first page: the three newest').to.deep.equal([ids[3], ids[2], ids[1]]);
      expect(inbox.text).to.include('<input type="checkbox" id="select-all" name="all" value="page" data-select-all>');
      // An item that arrives after the page was drawn is not among those it listed.
      const late = await apiItem(`${marker} late`);
      const changed = await browse(server, '/team/items/status', { method: 'POST', cookie, form: { all: 'page', shown, id: [ids[2]!], status: 'completed', return: back } });
      expect(changed.status).to.equal(303);
      expect(splitUndo(changed.headers.get('location')).location).to.equal(`${back}&changed=3&to=completed`);
      const statuses = new Map((await server.sql<{ id: string; status: string }>('select id::text, status from feedback where title like ?', [`${marker}%`])).map((row) => [row.id, row.status]));
      expect([ids[0], ids[1], ids[2], ids[3], late].map((id) => statuses.get(id!))).to.deep.equal(['new', 'completed', 'completed', 'completed', 'new']);
      // Without "all", the page's ids alone select nothing.
      const none = await browse(server, '/team/items/status', { method: 'POST', cookie, form: { shown, status: 'closed', return: back } });
      expect(none.status).to.equal(400);
      expect(none.text).to.include('Select at least one item');
    });

    it('when a bulk change is undone, then each item goes back to its own status through the same service, one moved since is left as it is, and the token works for no other session', async () => {
      const marker = `undo-${Date.now()}`;
      const [a, b, c, d, e] = [await apiItem(`${marker} a`), await apiItem(`${marker} b`), await apiItem(`${marker} c`), await apiItem(`${marker} d`), await apiItem(`${marker} e`)];
      for (const [id, status] of [[b, 'under-review'], [c, 'in-progress'], [e, 'planned']] as const) {
        expect((await request(server, 'PATCH', `/api/v1/feedback/${id}`, { apiKey: secretKey, body: { status } })).status).to.equal(200);
      }
      const { cookie, session } = await signIn();
      const back = `/team?search=${marker}&status=`;
      const changed = await browse(server, '/team/items/status', { method: 'POST', cookie, form: { id: [a, b, c, d, e], status: 'planned', return: back } });
      const { location, undo } = splitUndo(changed.headers.get('location'));
      expect(location).to.equal(`${back}&changed=5&to=planned`);
      const groups = undo!.split('~').slice(2, -1).sort();
      expect(groups, 'by status before; e was planned already').to.deep.equal([`in-progress_${c}`, `new_${[a, d].sort().join('.')}`, `under-review_${b}`]);
      const banner = await browse(server, changed.headers.get('location')!, { cookie });
      expect(banner.text).to.include('5 items moved to Planned.');
      expect(banner.text).to.include(`<input type="hidden" name="undo" value="${undo}">`);
      expect(banner.text).to.include(`<a class="banner-close" href="${back.replace('&', '&amp;')}" data-dismiss-banner>Dismiss</a>`);

      // Someone moves d meanwhile; the undo leaves it there.
      expect((await request(server, 'PATCH', `/api/v1/feedback/${d}`, { apiKey: secretKey, body: { status: 'completed' } })).status).to.equal(200);
      // Another session (another member) cannot use this token, nor can a token be altered.
      const other = await signIn();
      const stranger = await browse(server, '/team/items/status/undo', { method: 'POST', cookie: other.cookie, form: { undo: undo!, return: back } });
      expect(stranger.status).to.equal(400);
      expect(stranger.text).to.include('can no longer be undone');
      const altered = undo!.replace(`in-progress_${c}`, `closed_${c}`);
      expect((await browse(server, '/team/items/status/undo', { method: 'POST', cookie, form: { undo: altered, return: back } })).status).to.equal(400);
      // A post from another site is refused before anything is read.
      expect((await browse(server, '/team/items/status/undo', { method: 'POST', cookie, form: { undo: undo!, return: back }, headers: { origin: 'http://evil.example' } })).status).to.equal(403);
      expect((await server.sql<{ status: string }>('select status from feedback where id = ?', [c]))[0]!.status, 'nothing undone yet').to.equal('planned');

      const undone = await browse(server, '/team/items/status/undo', { method: 'POST', cookie, form: { undo: undo!, return: back } });
      expect(undone.status).to.equal(303);
      expect(undone.headers.get('location')).to.equal(`${back}&restored=3&kept=1`);
      const after = await browse(server, undone.headers.get('location')!, { cookie });
      expect(after.text).to.include('3 items are back at the status they had before. 1 item was changed since, and was left as it is.');
      expect(after.text, 'an undo is not undone again from its banner').not.to.include('/team/items/status/undo');
      const statuses = new Map((await server.sql<{ id: string; status: string }>('select id::text, status from feedback where title like ?', [`${marker}%`])).map((row) => [row.id, row.status]));
      expect([a, b, c, d, e].map((id) => statuses.get(id))).to.deep.equal(['new', 'under-review', 'in-progress', 'completed', 'planned']);
      const history = (await historyOf(marker)).filter((row) => row.actor === `team session ${session.id}`);
      expect(history.map((row) => `${row.from_status}>${row.to_status}`).sort(), 'the change and its undo, in the history like any change').to.deep.equal(
        ['new>planned', 'new>planned', 'under-review>planned', 'in-progress>planned', 'planned>new', 'planned>under-review', 'planned>in-progress'].sort(),
      );
      await expectCountersExact(server);
    });
  });
}
