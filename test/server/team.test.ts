import { expect } from 'chai';
import { backendAt, backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { browse, sessionCookie, splitUndo, type Page } from '../helpers/team-forms.js';
import { request, startTestServer, withServer, type TestServer, locationOf } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** The team's pages over HTTP (docs/triage.md): sign-in, sessions, the inbox and its bulk change. The browser suite drives them in Chromium. */

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

for (const backend of backends()) {
  describe(`team pages (${backend.name})`, () => {
    const server = withServer(backend);
    let secretKey: string;

    before(async () => {
      secretKey = await server.newKey(undefined, 'secret');
    });

    /** A link made by `feedback open --print` on the server's database, as a path. */
    async function linkOnDatabase(project = 'default'): Promise<string> {
      const run = await inProcess(['open', '--print', '--project', project, '--url', server.url, ...locationOf(server)]);
      expect(run.code, run.stderr).to.equal(0);
      const url = new URL(run.stdout.trim());
      expect(url.origin).to.equal(server.url);
      return url.pathname + url.search;
    }

    /** A signed-in session's cookie, through a link made with the secret key (or the one given). */
    async function signIn(key = secretKey): Promise<string> {
      const link = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: key });
      expect(link.status, JSON.stringify(link.body)).to.equal(201);
      return sessionCookie(await browse(server, link.body.path));
    }

    async function apiItem(title: string, type = 'idea'): Promise<string> {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, type } });
      expect(created.status).to.equal(201);
      return created.body.feedback.id as string;
    }

    it('when a link made by `feedback open` on the database is used, then it signs in once (an HttpOnly, SameSite=Lax cookie for /team, then the inbox), and a second use is a 410 page that says how to get another', async () => {
      const path = await linkOnDatabase();
      expect(path).to.match(/^\/team\/sign-in\?token=[\w-]{43}$/);
      const head = await fetch(server.url + path, { method: 'HEAD', redirect: 'manual' });
      expect(head.status, 'a HEAD only looks').to.equal(200);
      expect(head.headers.getSetCookie()).to.deep.equal([]);
      const first = await browse(server, path);
      expect(first.status).to.equal(303);
      expect(first.headers.get('location')).to.equal('/team');
      const set = first.headers.getSetCookie().find((line) => line.startsWith('feedback_team='))!;
      expect(set.toLowerCase()).to.include('httponly').and.include('samesite=lax').and.include('path=/team').and.not.include('secure');
      const inbox = await browse(server, '/team', { cookie: sessionCookie(first) });
      expect(inbox.status).to.equal(200);
      expect(inbox.text).to.include('<h1>Inbox</h1>');

      const again = await browse(server, path);
      expect(again.status).to.equal(410);
      expect(again.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(again.text).to.include('been used already').and.include('feedback open');
      expect(again.headers.getSetCookie(), 'no session from a used link').to.deep.equal([]);
      const token = new URL(path, server.url).searchParams.get('token')!;
      const stored = await server.sql<{ token_hash: string }>('select token_hash from team_sign_in_links');
      expect(stored.map((row) => row.token_hash).join(), 'only hashes are stored').not.to.include(token);
    });

    it('when a link has expired or is unknown, then it is refused with a page that says so (410, 401)', async () => {
      const path = await linkOnDatabase();
      const token = new URL(path, server.url).searchParams.get('token')!;
      await server.sql("update team_sign_in_links set expires_at = now() - interval '1 second' where used_at is null");
      const expired = await browse(server, path);
      expect(expired.status).to.equal(410);
      expect(expired.text).to.include('expired').and.include('feedback open');
      const unknown = await browse(server, `/team/sign-in?token=${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`);
      expect(unknown.status).to.equal(401);
      expect(unknown.text).to.include('not one this server made');
    });

    it('when a secret key asks for a link through the API, then it gets a path and an expiry 10 minutes away; a public key is refused (403)', async () => {
      const before = Date.now();
      const link = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: secretKey });
      expect(link.status).to.equal(201);
      expect(link.body.path).to.match(/^\/team\/sign-in\?token=[\w-]{43}$/);
      expect(Date.parse(link.body.expiresAt) - before).to.be.within(9 * 60_000, 11 * 60_000);
      expect(link.headers.get('idempotent-replayed')).to.equal(null);
      const publicKey = await request(server, 'POST', '/api/v1/team/sign-in-links');
      expect(publicKey.status).to.equal(403);
    });

    it("when sign-in links are used on the team's pages and the board, refused or not (issue 49: no Cache-Control: no-store on sign-in link answers), then every answer is no-store", async () => {
      const link = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: secretKey });
      expect(link.headers.get('cache-control')).to.equal('no-store');
      const answers: [string, string][] = [
        ['a team link', link.body.path],
        ['the same link again', link.body.path],
        ['an unknown team link', '/team/sign-in?token=not-a-token'],
        ["a board's link without a token", '/b/default/sign-in'],
        ["a board's link with a forged token", '/b/default/sign-in?token=not-a-token'],
        ['a link to a board that does not exist', '/b/no-such-board/sign-in?token=not-a-token'],
      ];
      for (const [what, path] of answers) {
        const answer = await fetch(server.url + path, { redirect: 'manual' });
        expect(answer.status, what).to.be.oneOf([303, 400, 401, 404, 410]);
        expect(answer.headers.get('cache-control'), what).to.equal('no-store');
      }
    });

    it('when the sign-in form gets a public, unknown or revoked key, then the form comes back (400, 401) without the key in it; a secret key signs in', async () => {
      const form = await browse(server, '/team/sign-in');
      expect(form.status).to.equal(200);
      expect(form.text).to.include('type="password" id="key" name="key" autocomplete="off"');
      const revoked = await server.newKey(undefined, 'secret');
      const revokedRun = await inProcess(['keys', 'revoke', revoked, ...locationOf(server)]);
      expect(revokedRun.code, revokedRun.stderr).to.equal(0);
      const cases: [string, number][] = [
        [server.apiKey, 400],
        ['sk_' + 'A'.repeat(40), 401],
        [revoked, 401],
        ['', 400],
      ];
      for (const [key, status] of cases) {
        const page = await browse(server, '/team/sign-in', { method: 'POST', form: { key } });
        expect(page.status, key).to.equal(status);
        expect(page.text).to.include('There is a problem');
        if (key !== '') expect(page.text, 'the key is never written back').not.to.include(key.slice(3, 12));
        expect(page.headers.getSetCookie()).to.deep.equal([]);
      }
      const signedIn = await browse(server, '/team/sign-in', { method: 'POST', form: { key: secretKey } });
      expect(signedIn.status).to.equal(303);
      expect(signedIn.headers.get('location')).to.equal('/team');
      const inbox = await browse(server, '/team', { cookie: sessionCookie(signedIn) });
      expect(inbox.status).to.equal(200);
      expect(inbox.text, 'no part of a key on a team page').not.to.include(secretKey.slice(0, 9));
    });

    it('when team pages are answered, then they are never cached, carry the CSP, and ask for a session (303 to sign-in, a post without one 401)', async () => {
      const cookie = await signIn();
      for (const [path, cookieSent] of [['/team', cookie], ['/team/sign-in', undefined], ['/team', undefined], ['/team/nope', cookie]] as const) {
        const page = await browse(server, path, { cookie: cookieSent });
        expect(page.headers.get('cache-control'), path).to.equal('no-store');
        expect(page.headers.get('content-security-policy'), path).to.equal(CSP);
      }
      const anonymous = await browse(server, '/team');
      expect(anonymous.status).to.equal(303);
      expect(anonymous.headers.get('location')).to.equal('/team/sign-in');
      const id = await apiItem('Posted without a session');
      const post = await browse(server, '/team/items/status', { method: 'POST', form: { id, status: 'planned' } });
      expect(post.status).to.equal(401);
      expect(post.text).to.include('Sign in');
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.status).to.equal('new');
      expect((await browse(server, '/team/nope', { cookie })).status).to.equal(404);
      const inbox = await browse(server, '/team', { cookie });
      expect(inbox.text, 'no inline script or style').not.to.match(/<script>|<style|style="/);
      const script = /<script src="(\/team\/assets\/team\.[\w-]{12}\.js)" defer><\/script>/.exec(inbox.text)?.[1];
      expect(script, 'the team script, by a hashed name').to.be.a('string');
      const asset = await fetch(server.url + script!, { headers: { 'accept-encoding': 'br' } });
      expect(asset.status).to.equal(200);
      expect(asset.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect(asset.headers.get('content-encoding')).to.equal('br');
      expect(await asset.text()).to.include('keydown');
    });

    it('when the inbox is opened, then it lists the new items newest first by the API\'s own list, with the board\'s filters, search, sorts and pages', async () => {
      const marker = `inbox-${Date.now()}`;
      const bug = await apiItem(`${marker} crash`, 'bug');
      const older = await apiItem(`${marker} older idea`);
      const newer = await apiItem(`${marker} newer idea`);
      const planned = await apiItem(`${marker} planned`);
      await request(server, 'PATCH', `/api/v1/feedback/${planned}`, { apiKey: secretKey, body: { status: 'planned' } });
      const cookie = await signIn();
      const ids = (page: Page) => [...page.text.matchAll(/data-item="([0-9a-f-]{36})"/g)].map((m) => m[1]);

      const inbox = await browse(server, `/team?search=${marker}`, { cookie });
      expect(ids(inbox), 'new items only, newest first').to.deep.equal([newer, older, bug]);
      expect(inbox.text).to.include('<option value="new" selected>New</option>');
      const api = await request(server, 'GET', `/api/v1/feedback?search=${marker}&status=new`);
      expect(ids(inbox)).to.deep.equal(api.body.items.map((item: { id: string }) => item.id));

      expect(ids(await browse(server, `/team?search=${marker}&status=`, { cookie })), 'Any status').to.deep.equal([planned, newer, older, bug]);
      expect(ids(await browse(server, `/team?search=${marker}&type=bug`, { cookie }))).to.deep.equal([bug]);
      expect(ids(await browse(server, `/team?search=${marker}&sortBy=oldest`, { cookie }))).to.deep.equal([bug, older, newer]);
      const paged = await browse(server, `/team?search=${marker}&limit=2&page=2`, { cookie });
      expect(ids(paged)).to.deep.equal([bug]);
      expect(paged.text).to.match(/<a href="[^"]*page=2[^"]*" aria-label="Page 2" aria-current="page">2<\/a>/);
      expect(paged.text).to.include('rel="prev">Previous</a>');
      const invalid = await browse(server, '/team?sortBy=best', { cookie });
      expect(invalid.status).to.equal(400);
      expect(invalid.text).to.include('<a href="#sortBy">sortBy must be one of: newest, oldest, votes, comments</a>');
    });

    it('when several items are selected and their status changed, then each changes through the API\'s service (history names the session and key), and the inbox says so', async () => {
      const marker = `bulk-${Date.now()}`;
      const first = await apiItem(`${marker} one`);
      const second = await apiItem(`${marker} two`);
      const untouched = await apiItem(`${marker} three`);
      const cookie = await signIn();
      const back = `/team?search=${marker}`;
      const changed = await browse(server, '/team/items/status', { method: 'POST', cookie, form: { id: [first, second], status: 'planned', return: back } });
      expect(changed.status).to.equal(303);
      const { location, undo } = splitUndo(changed.headers.get('location'));
      expect(location).to.equal(`${back}&changed=2&to=planned`);
      expect(undo, 'an undo of the two, from new').to.match(new RegExp(`^\\d+~planned~new_(${first}\\.${second}|${second}\\.${first})~[\\w-]{43}$`));
      const inbox = await browse(server, changed.headers.get('location')!, { cookie });
      expect(inbox.text).to.include('2 items moved to Planned.');
      expect(inbox.text).to.include('<button type="submit" class="button secondary">Undo</button>');
      expect(inbox.text, 'the notice is not kept in the form\'s way back').to.include(`name="return" value="/team?search=${marker}&amp;status=new"`);
      const [session] = await server.sql<{ id: string }>("select id::text from team_sessions order by created_at desc limit 1");
      for (const id of [first, second]) {
        const item = await request(server, 'GET', `/api/v1/feedback/${id}`, { apiKey: secretKey });
        expect(item.body.feedback.status).to.equal('planned');
        expect(item.body.feedback.statusHistory.at(-1)).to.include({ from: 'new', to: 'planned', actor: `team session ${session!.id}` });
      }
      expect((await request(server, 'GET', `/api/v1/feedback/${untouched}`)).body.feedback.status).to.equal('new');
      const board = await browse(server, `/b/default?search=${marker}&status=planned`);
      expect(board.text).to.include(`${marker} one`).and.include(`${marker} two`);

      // Issue 37 (open redirect): a way back that climbs out of /team is not followed.
      for (const unsafe of ['/team/../..//evil.example/', '/team/%2e%2e/%2e%2e//evil.example/team']) {
        const climbed = await browse(server, '/team/items/status', { method: 'POST', cookie, form: { id: [first], status: 'planned', return: unsafe } });
        expect(climbed.headers.get('location'), unsafe).to.equal('/team?changed=1&to=planned');
      }

      const none = await browse(server, '/team/items/status', { method: 'POST', cookie, form: { status: 'planned', return: back } });
      expect(none.status).to.equal(400);
      expect(none.text).to.include('Select at least one item');
      const otherProject = await server.newKey('elsewhere', 'secret');
      const foreign = await request(server, 'POST', '/api/v1/feedback', { apiKey: otherProject, body: { title: 'not yours' } });
      const missing = await browse(server, '/team/items/status', { method: 'POST', cookie, form: { id: [foreign.body.feedback.id, untouched], status: 'closed' } });
      expect(splitUndo(missing.headers.get('location')).location).to.equal('/team?changed=1&to=closed&missing=1');
      expect((await request(server, 'GET', `/api/v1/feedback/${foreign.body.feedback.id}`, { apiKey: otherProject })).body.feedback.status, 'another project\'s item is not reached').to.equal('new');
    });

    it('when the team changes an item\'s status with a comment, then both are made in one step through the API\'s services, and the page shows them with the history', async () => {
      const id = await apiItem('Item in the team view');
      const cookie = await signIn();
      const page = await browse(server, `/team/items/${id}`, { cookie });
      expect(page.status).to.equal(200);
      expect(page.text).to.include('<h1><bdi>Item in the team view</bdi></h1>').and.include('The status has not changed');
      const changed = await browse(server, `/team/items/${id}/status`, { method: 'POST', cookie, form: { status: 'in-progress', comment: 'Started this week.' } });
      expect(changed.status).to.equal(303);
      expect(changed.headers.get('location')).to.equal(`/team/items/${id}?done=status`);
      const api = (await request(server, 'GET', `/api/v1/feedback/${id}`, { apiKey: secretKey })).body.feedback;
      expect(api.status).to.equal('in-progress');
      expect(api.commentCount).to.equal(1);
      expect(api.comments[0]).to.deep.include({ content: 'Started this week.', author: { name: 'Default project', isTeam: true } });
      expect(api.statusHistory).to.have.length(1);
      const shown = await browse(server, changed.headers.get('location')!, { cookie });
      expect(shown.text).to.include('Saved: the status is In progress.').and.include('Moved from New to In progress by <bdi>team session ');
      expect(shown.text, 'no part of a key in the history').not.to.include(secretKey.slice(0, 9));

      const same = await browse(server, `/team/items/${id}/status`, { method: 'POST', cookie, form: { status: 'in-progress', comment: '' } });
      expect(same.status).to.equal(303);
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`, { apiKey: secretKey })).body.feedback.statusHistory, 'the same status records nothing').to.have.length(1);

      const tooLong = await browse(server, `/team/items/${id}/status`, { method: 'POST', cookie, form: { status: 'closed', comment: 'x'.repeat(10_001) } });
      expect(tooLong.status).to.equal(400);
      expect(tooLong.text).to.include('<a href="#comment">Content must be at most 10000 characters</a>');
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.status, 'neither is made').to.equal('in-progress');
    });

    it('when the team replies on an item, then the reply is the team\'s comment on the API and the board; an empty reply is refused next to its field', async () => {
      const id = await apiItem('Replied from the team view');
      const cookie = await signIn();
      const empty = await browse(server, `/team/items/${id}/comments`, { method: 'POST', cookie, form: { reply: '   ' } });
      expect(empty.status).to.equal(400);
      expect(empty.text).to.include('<a href="#reply">Content is required</a>');
      const replied = await browse(server, `/team/items/${id}/comments`, { method: 'POST', cookie, form: { reply: 'Thanks, <b>noted</b>.' } });
      expect(replied.status).to.equal(303);
      expect(replied.headers.get('location')).to.equal(`/team/items/${id}?done=reply`);
      const api = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
      expect(api.comments).to.have.length(1);
      expect(api.comments[0].author).to.deep.equal({ name: 'Default project', isTeam: true });
      const board = await browse(server, `/b/default/items/${id}`);
      expect(board.text).to.include('Thanks, &lt;b&gt;noted&lt;/b&gt;.');
      for (const path of [`/team/items/0194a7d2-0000-7000-8000-000000000000`, '/team/items/not-an-id']) expect((await browse(server, path, { cookie })).status, path).to.equal(404);
    });

    it('when the team merges a duplicate chosen by search, then its votes and comments move as through the API, and the duplicate is gone', async () => {
      const marker = `merge-${Date.now()}`;
      const original = (await request(server, 'POST', '/api/v1/feedback', { body: { title: `${marker} export to CSV`, endUser: { externalId: 'ann' } } })).body.feedback.id as string;
      const duplicate = (await request(server, 'POST', '/api/v1/feedback', { body: { title: `${marker} CSV export please`, endUser: { externalId: 'bob' } } })).body.feedback.id as string;
      await request(server, 'POST', `/api/v1/feedback/${duplicate}/vote`, { body: { endUser: { externalId: 'ann' } } });
      await request(server, 'POST', `/api/v1/feedback/${duplicate}/comments`, { apiKey: secretKey, body: { content: 'Me too', endUser: { externalId: 'bob' } } });
      const cookie = await signIn();

      const found = await browse(server, `/team/items/${duplicate}?merge=${marker}`, { cookie });
      expect(found.text).to.include(`<input type="radio" name="intoId" value="${original}"`);
      expect(found.text, 'never the item itself').not.to.include(`value="${duplicate}" id=`);
      const none = await browse(server, `/team/items/${duplicate}/merge`, { method: 'POST', cookie, form: { merge: marker } });
      expect(none.status).to.equal(400);
      expect(none.text).to.include('Choose the item to merge this one into');
      const itself = await browse(server, `/team/items/${duplicate}/merge`, { method: 'POST', cookie, form: { intoId: duplicate } });
      expect(itself.status).to.equal(400);

      const merged = await browse(server, `/team/items/${duplicate}/merge`, { method: 'POST', cookie, form: { intoId: original, merge: marker } });
      expect(merged.status).to.equal(303);
      expect(merged.headers.get('location')).to.equal(`/team/items/${original}?done=merged`);
      const target = (await request(server, 'GET', `/api/v1/feedback/${original}`)).body.feedback;
      expect(target.voteCount, 'ann voted on both: counted once; bob moves over').to.equal(2);
      expect(target.commentCount).to.equal(1);
      expect((await request(server, 'GET', `/api/v1/feedback/${duplicate}`)).status).to.equal(404);
      expect((await browse(server, merged.headers.get('location')!, { cookie })).text).to.include('Merged: the duplicate');
      expect((await browse(server, `/team/items/${duplicate}`, { cookie })).status).to.equal(404);
    });

    it('when the team deletes an item, then a confirmation page comes first, and only its post deletes it through the API\'s delete', async () => {
      const id = await apiItem('Deleted from the team view');
      const cookie = await signIn();
      const confirm = await browse(server, `/team/items/${id}/delete`, { cookie });
      expect(confirm.status).to.equal(200);
      expect(confirm.text).to.include('<h1>Delete &ldquo;<bdi>Deleted from the team view</bdi>&rdquo;?</h1>').and.include('This cannot be undone');
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).status, 'asking is not deleting').to.equal(200);
      const deleted = await browse(server, `/team/items/${id}/delete`, { method: 'POST', cookie });
      expect(deleted.status).to.equal(303);
      expect(deleted.headers.get('location')).to.equal('/team?deleted=1');
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).status).to.equal(404);
      expect((await browse(server, '/team?deleted=1', { cookie })).text).to.include('The item was deleted.');
      expect((await browse(server, `/team/items/${id}/delete`, { method: 'POST', cookie })).status, 'twice').to.equal(404);
    });

    it('when a browser signs in again, then the session its cookie named ends', async () => {
      const first = await signIn();
      const link = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: secretKey });
      const second = await browse(server, link.body.path, { cookie: first });
      expect(second.status).to.equal(303);
      expect((await browse(server, '/team', { cookie: first })).status).to.equal(303);
      expect((await browse(server, '/team', { cookie: sessionCookie(second) })).status).to.equal(200);
    });

    it('when a member gives a name (`feedback open --name`, or the form), then it signs their replies and names them in the history and `sessions list`', async () => {
      const id = await apiItem('Signed by a name');
      const run = await inProcess(['open', '--print', '--name', '  Ada  ', '--url', server.url, ...locationOf(server)]);
      expect(run.code, run.stderr).to.equal(0);
      const cookie = sessionCookie(await browse(server, new URL(run.stdout.trim()).pathname + new URL(run.stdout.trim()).search));
      await browse(server, `/team/items/${id}/status`, { method: 'POST', cookie, form: { status: 'planned', comment: 'On it.' } });
      const item = (await request(server, 'GET', `/api/v1/feedback/${id}`, { apiKey: secretKey })).body.feedback;
      expect(item.comments[0].author).to.deep.equal({ name: 'Ada', isTeam: true });
      expect(item.statusHistory[0].actor).to.match(/^Ada \(team session [0-9a-f-]{36}\)$/);
      const listed = JSON.parse((await inProcess(['sessions', 'list', '--json', ...locationOf(server)])).stdout) as { name: string | null }[];
      expect(listed[0]!.name).to.equal('Ada');

      const tooLong = await browse(server, '/team/sign-in', { method: 'POST', form: { key: secretKey, name: 'x'.repeat(201) } });
      expect(tooLong.status).to.equal(400);
      expect(tooLong.text).to.include('<a href="#name">name must be at most 200 characters</a>');
      expect(tooLong.text, 'the key is not written back').not.to.include(secretKey.slice(3, 12));
      const named = await browse(server, '/team/sign-in', { method: 'POST', form: { key: secretKey, name: 'Grace' } });
      expect(named.status).to.equal(303);
      await browse(server, `/team/items/${id}/comments`, { method: 'POST', cookie: sessionCookie(named), form: { reply: 'Hello' } });
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments[1].author.name).to.equal('Grace');
      expect((await inProcess(['open', '--print', '--name', ' ', ...locationOf(server)])).code, 'an empty name is a usage error').to.equal(2);
    });

    it('when a team form is posted from another site, or with no sign of its origin, then it is refused with a 403 page and nothing changes', async () => {
      const id = await apiItem('Cross-site bulk');
      const cookie = await signIn();
      const refusals: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: server.url, 'sec-fetch-site': 'cross-site' }, { origin: '' }];
      for (const headers of refusals) {
        for (const path of ['/team/items/status', '/team/sign-out', '/team/sign-in']) {
          const page = await browse(server, path, { method: 'POST', cookie, headers, form: { id, status: 'closed', key: secretKey } });
          expect(page.status, `${path} ${JSON.stringify(headers)}`).to.equal(403);
          expect(page.text).to.include('The form was sent from another site');
        }
      }
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.status).to.equal('new');
      expect((await browse(server, '/team', { cookie })).status, 'still signed in').to.equal(200);
    });

    it('when a member signs out, then the session ends on the server: the same cookie, sent again, is refused', async () => {
      const cookie = await signIn();
      const out = await browse(server, '/team/sign-out', { method: 'POST', cookie });
      expect(out.status).to.equal(303);
      expect(out.headers.get('location')).to.equal('/team/sign-in?signed-out');
      expect(out.headers.getSetCookie().join()).to.match(/feedback_team=;/);
      const replayed = await browse(server, '/team', { cookie });
      expect(replayed.status).to.equal(303);
      expect(replayed.headers.get('location')).to.equal('/team/sign-in?ended');
      expect((await browse(server, '/team/sign-in?ended')).text).to.include('Your session has ended');
    });

    it('when the secret key that opened a session is revoked, then the session is refused at its next request, and its unused links too', async () => {
      const key = await server.newKey(undefined, 'secret');
      const cookie = await signIn(key);
      const unused = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: key });
      expect((await browse(server, '/team', { cookie })).status).to.equal(200);
      const revoked = await inProcess(['keys', 'revoke', key, ...locationOf(server)]);
      expect(revoked.code, revoked.stderr).to.equal(0);
      const refused = await browse(server, '/team', { cookie });
      expect(refused.status).to.equal(303);
      expect(refused.headers.get('location')).to.equal('/team/sign-in?ended');
      expect((await browse(server, unused.body.path)).status).to.equal(410);
      const listed = await inProcess(['sessions', 'list', '--all', '--json', ...locationOf(server)]);
      const sessions = JSON.parse(listed.stdout) as { state: string; keyPrefix: string | null }[];
      expect(sessions.some((s) => s.state === 'key-revoked' && s.keyPrefix === key.slice(0, 9))).to.equal(true);
    });

    it('when a session has been idle for 8 hours, then it is refused; a used one is marked seen at most once a minute', async () => {
      const cookie = await signIn();
      const [row] = await server.sql<{ id: string; last_seen_at: Date }>('select id::text, last_seen_at from team_sessions order by created_at desc limit 1');
      await browse(server, '/team', { cookie });
      const [same] = await server.sql<{ last_seen_at: Date }>('select last_seen_at from team_sessions where id = ?', [row!.id]);
      expect(new Date(same!.last_seen_at).getTime(), 'not written again within the minute').to.equal(new Date(row!.last_seen_at).getTime());
      await server.sql("update team_sessions set last_seen_at = now() - interval '2 minutes' where id = ?", [row!.id]);
      await browse(server, '/team', { cookie });
      const [seen] = await server.sql<{ fresh: boolean }>("select last_seen_at > now() - interval '10 seconds' as fresh from team_sessions where id = ?", [row!.id]);
      expect(seen!.fresh, 'seen again after a minute').to.equal(true);
      await server.sql("update team_sessions set last_seen_at = now() - interval '8 hours 1 minute' where id = ?", [row!.id]);
      expect((await browse(server, '/team', { cookie })).headers.get('location')).to.equal('/team/sign-in?ended');
    });

    it('when the operator lists and ends sessions with `feedback sessions`, then an ended session is refused at once', async () => {
      const one = await signIn();
      const two = await signIn();
      const listed = await inProcess(['sessions', 'list', '--project', 'default', '--json', ...locationOf(server)]);
      expect(listed.code, listed.stderr).to.equal(0);
      const live = JSON.parse(listed.stdout) as { id: string; state: string; openedWith: string; project: string }[];
      expect(live.length).to.be.at.least(2);
      expect(live.every((s) => s.state === 'active' && s.project === 'default')).to.equal(true);
      const newest = live[0]!.id;
      const ended = await inProcess(['sessions', 'end', newest, '--json', ...locationOf(server)]);
      expect(ended.code, ended.stderr).to.equal(0);
      expect(JSON.parse(ended.stdout)).to.deep.equal({ ended: [newest] });
      expect((await browse(server, '/team', { cookie: two })).status, 'the newest session, ended').to.equal(303);
      expect((await browse(server, '/team', { cookie: one })).status).to.equal(200);
      const unknown = await inProcess(['sessions', 'end', '0194a7d2-0000-7000-8000-000000000000', ...locationOf(server)]);
      expect(unknown.code).to.equal(3);
      const usage = await inProcess(['sessions', 'end', ...locationOf(server)]);
      expect(usage.code).to.equal(2);
      const all = await inProcess(['sessions', 'end', '--all', ...locationOf(server)]);
      expect(all.code, all.stderr).to.equal(0);
      expect((await browse(server, '/team', { cookie: one })).status).to.equal(303);
    });
  });

  describe(`sign-in sweep (${backend.name})`, () => {
    it('when a server starts on links a day past their expiry, sessions dead for 30 days and spent board tokens past theirs, then the machine\'s jobs delete them, and the others stay', async () => {
      const first = await startTestServer(backend);
      const secret = await first.newKey(undefined, 'secret');
      for (let i = 0; i < 2; i++) await request(first, 'POST', '/api/v1/team/sign-in-links', { apiKey: secret });
      await first.sql("update team_sign_in_links set expires_at = now() - interval '25 hours' where id = (select id from team_sign_in_links order by id limit 1)");
      await first.sql("insert into team_sessions (project_id, token_hash, opened_with, last_seen_at) select id, 'old', 'link', now() - interval '31 days' from projects where slug = 'default'");
      await first.sql("insert into team_sessions (project_id, token_hash, opened_with, last_seen_at, ended_at) select id, 'ended', 'link', now(), now() - interval '31 days' from projects where slug = 'default'");
      await first.sql("insert into team_sessions (project_id, token_hash, opened_with, last_seen_at) select id, 'recent', 'link', now() - interval '9 hours' from projects where slug = 'default'");
      await first.sql("insert into board_spent_tokens (token_hash, expires_at) values ('expired', now() - interval '1 minute'), ('live', now() + interval '5 minutes')");
      await first.server.close();
      const restarted = await startTestServer(backendAt(backend.name, first.database.location), { existingKey: first.apiKey });
      try {
        const left = async () => ({
          links: (await restarted.sql<{ n: number }>('select count(*)::int as n from team_sign_in_links'))[0]!.n,
          sessions: (await restarted.sql<{ token_hash: string }>('select token_hash from team_sessions order by token_hash')).map((row) => row.token_hash),
          boardTokens: (await restarted.sql<{ token_hash: string }>('select token_hash from board_spent_tokens')).map((row) => row.token_hash),
        });
        let now = await left();
        await until(async () => {
          now = await left();
          return now.links <= 1 && now.sessions.length <= 1 && now.boardTokens.length <= 1;
        }, 15_000, () => `the sweep (left: ${JSON.stringify(now)})`);
        expect(now).to.deep.equal({ links: 1, sessions: ['recent'], boardTokens: ['live'] });
      } finally {
        await restarted.server.close();
        await first.database.drop();
      }
    });
  });

  describe(`team sign-in within the rate limit (${backend.name})`, () => {
    const server = withServer(backend, { rateLimit: 2 });

    it('when an address tries keys past its budget, then the sign-in form answers 429 with Retry-After, apart from the board\'s budget', async () => {
      for (let i = 0; i < 2; i++) expect((await browse(server, '/team/sign-in', { method: 'POST', form: { key: 'sk_' + 'B'.repeat(40) } })).status).to.equal(401);
      const refused = await browse(server, '/team/sign-in', { method: 'POST', form: { key: 'sk_' + 'B'.repeat(40) } });
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      expect(refused.text).to.include('Too many requests');
      expect((await browse(server, '/team/sign-in?token=' + 'C'.repeat(43))).status, 'a link spends the same budget').to.equal(429);
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Board budget' } });
      expect((await browse(server, `/b/default/items/${created.body.feedback.id}/vote`, { method: 'POST' })).status, 'the board keeps its own').to.equal(303);
    });
  });
}
