import { guardFields } from '../helpers/form-guard.js';
import { expect } from 'chai';
import { BOARD_PROJECT_CACHE_TTL_MS } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, withServer, locationOf } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** How often a pattern (global) matches a text. */
function occurrences(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

/** The public board's HTTP behaviour (docs/board.md); the browser suite (test/browser/) drives the same pages in Chromium. */

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** A request to the board as a browser sends it: same-origin form posts carry the server's own Origin. */
async function browse(server: { url: string }, path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
  let body: string | undefined;
  if (init.form) {
    body = new URLSearchParams(init.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if ((init.method ?? 'GET') === 'POST') headers.origin ??= server.url;
  const response = await fetch(server.url + path, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}


for (const backend of backends()) {
  describe(`board pages (${backend.name})`, () => {
    const server = withServer(backend);

    async function apiItem(title: string, status?: string): Promise<string> {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId: 'board-test' } } });
      expect(created.status).to.equal(201);
      if (status) {
        const secret = await server.newKey(undefined, 'secret');
        const changed = await request(server, 'PATCH', `/api/v1/feedback/${created.body.feedback.id}`, { apiKey: secret, body: { status } });
        expect(changed.status).to.equal(200);
      }
      return created.body.feedback.id as string;
    }

    it('when a browser asks for /, then it is sent to the default board; an API client keeps the JSON answer', async () => {
      const browser = await browse(server, '/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(browser.status).to.equal(302);
      expect(browser.headers.get('location')).to.equal('/b/default');
      for (const accept of [undefined, 'application/json', '*/*']) {
        const api = await request(server, 'GET', '/', { apiKey: null, headers: accept ? { accept } : {} });
        expect(api.status, String(accept)).to.equal(200);
        expect(api.body, String(accept)).to.include({ name: 'feedback' });
      }
    });

    it('when a page and its assets are read, then the page carries the CSP and the assets have hashed names, a year of cache and compression', async () => {
      const page = await browse(server, '/b/default');
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).to.equal(CSP);
      expect(page.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(page.headers.get('referrer-policy')).to.equal('same-origin');
      expect(page.text).to.match(/<html lang="en" dir="ltr">/);
      expect(page.text, 'no inline script or style').not.to.match(/<script>|<style|style="/);
      const assets = [...page.text.matchAll(/(?:href|src)="(\/assets\/board\.[\w-]{12}\.(?:css|js))"/g)].map((m) => m[1]!);
      expect(assets).to.have.length(2);
      for (const path of assets) {
        const response = await fetch(server.url + path, { headers: { 'accept-encoding': 'br' } });
        expect(response.status, path).to.equal(200);
        expect(response.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
        expect(response.headers.get('content-encoding')).to.equal('br');
        expect((await response.text()).length).to.be.greaterThan(100);
      }
      expect((await browse(server, '/assets/board.css')).status, 'an unhashed name is no asset').to.equal(404);
    });

    it('when the list, a search and the roadmap are read, then each vote button says whether this visitor votes for its item', async () => {
      const mine = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Pressed marker mine' } })).body.feedback.id as string;
      const theirs = await apiItem('Pressed marker theirs');
      const secret = await server.newKey(undefined, 'secret');
      for (const id of [mine, theirs]) expect((await request(server, 'PATCH', `/api/v1/feedback/${id}`, { apiKey: secret, body: { status: 'planned' } })).status).to.equal(200);
      const pressed = (text: string, id: string) => new RegExp(`action="/b/default/items/${id}/vote"[^]*?aria-pressed="(true|false)"`).exec(text)?.[1];
      for (const path of ['/b/default?limit=100', '/b/default?search=pressed%20marker', '/b/default?status=planned&sortBy=votes', '/b/default/roadmap']) {
        const page = await browse(server, path);
        expect(page.status, path).to.equal(200);
        expect(pressed(page.text, mine), `${path}: the submitter's address votes for its item`).to.equal('true');
        expect(pressed(page.text, theirs), `${path}: an end user's item`).to.equal('false');
      }
    });

    it('when a browser takes Brotli or gzip, then a page comes compressed, and the same page otherwise', async () => {
      const plain = await fetch(`${server.url}/b/default`, { headers: { accept: 'text/html', 'accept-encoding': 'identity' } });
      const text = await plain.text();
      expect(plain.headers.get('content-encoding')).to.equal(null);
      expect(plain.headers.get('vary')).to.include('Accept-Encoding');
      for (const encoding of ['br', 'gzip']) {
        const response = await fetch(`${server.url}/b/default`, { headers: { accept: 'text/html', 'accept-encoding': encoding } });
        expect(response.headers.get('content-encoding'), encoding).to.equal(encoding);
        expect(await response.text(), 'fetch decodes it to the same page').to.equal(text);
      }
    });

    it('when a vote or a new item changes the list between two reads, then the next page shows it in every encoding (pages kept by what they are made of, never stale)', async () => {
      const id = await apiItem('Kept pages follow the votes');
      const count = (text: string) => new RegExp(`action="/b/default/items/${id}/vote"[^]*?data-count>(\\d+)<`).exec(text)?.[1];
      const read = async (encoding: string) => {
        const response = await fetch(`${server.url}/b/default?limit=100`, { headers: { accept: 'text/html', 'accept-encoding': encoding } });
        return response.text();
      };
      for (const encoding of ['identity', 'br', 'gzip']) expect(count(await read(encoding)), encoding).to.equal('1');
      for (const encoding of ['identity', 'br', 'gzip']) expect(count(await read(encoding)), `${encoding}, read again`).to.equal('1');
      const voted = await request(server, 'POST', `/api/v1/feedback/${id}/vote`, { body: { endUser: { externalId: 'kept-pages-voter' } } });
      expect(voted.status).to.equal(200);
      for (const encoding of ['identity', 'br', 'gzip']) expect(count(await read(encoding)), `${encoding}, after the vote`).to.equal('2');
      const added = await apiItem('Kept pages show new items');
      for (const encoding of ['identity', 'br', 'gzip']) expect(await read(encoding), encoding).to.include(added);
    });

    it('when the list is asked with an invalid value, then the page is a 400 that shows the contract\'s message next to the control', async () => {
      const page = await browse(server, '/b/default?sortBy=best&status=nope');
      expect(page.status).to.equal(400);
      expect(page.text).to.include('<a href="#sortBy">sortBy must be one of: newest, oldest, votes, comments</a>');
      expect(page.text).to.include('<a href="#status">Status must be one of: new, under-review, planned, in-progress, completed, closed</a>');
    });

    it('when an item is submitted with an empty title, then the form comes back (400) with the contract\'s message linked to the field, and nothing is made', async () => {
      const before = await request(server, 'GET', '/api/v1/feedback');
      const page = await browse(server, '/b/default/new', { method: 'POST', form: { title: '   ', description: 'kept', type: 'bug' } });
      expect(page.status).to.equal(400);
      expect(page.text).to.include('<a href="#title">Title is required</a>');
      expect(page.text).to.include('aria-describedby="title-hint title-error" aria-invalid="true"');
      expect(page.text, 'what was typed stays').to.include('>kept</textarea>');
      expect((await request(server, 'GET', '/api/v1/feedback')).body.total).to.equal(before.body.total);
    });

    it('when an item with markup in its title is submitted, then it is made as the API makes it (303 to its page) and shown as text', async () => {
      const guard = guardFields((await browse(server, '/b/default/new')).text, 'submit');
      const page = await browse(server, '/b/default/new', { method: 'POST', form: { ...guard, title: '<img src=x onerror=alert(1)> Dark mode', type: 'idea', metadata: '{"x":1}' } });
      expect(page.status).to.equal(303);
      const id = /\/b\/default\/items\/([0-9a-f-]{36})$/.exec(page.headers.get('location') ?? '')?.[1];
      expect(id, String(page.headers.get('location'))).to.be.a('string');
      const api = await request(server, 'GET', `/api/v1/feedback/${id}`);
      expect(api.body.feedback).to.include({ title: '<img src=x onerror=alert(1)> Dark mode', type: 'idea', voteCount: 1, description: null });
      const shown = await browse(server, `/b/default/items/${id}`);
      expect(shown.text).to.include('<h1><bdi>&lt;img src=x onerror=alert(1)&gt; Dark mode</bdi></h1>');
      expect(shown.text, 'the submitter votes for it, as through the API').to.include('aria-pressed="true"');
    });

    it('when a visitor votes on the board, then the API sees the same anonymous voter from that address, and the visitor goes back where the form said', async () => {
      const id = await apiItem('Vote from the board');
      const voted = await browse(server, `/b/default/items/${id}/vote`, { method: 'POST', form: { return: '/b/default?sortBy=votes' } });
      expect(voted.status).to.equal(303);
      expect(voted.headers.get('location')).to.equal('/b/default?sortBy=votes');
      const check = await request(server, 'GET', `/api/v1/feedback/${id}/vote`);
      expect(check.body).to.deep.equal({ voted: true, voteCount: 2 });
      const json = await browse(server, `/b/default/items/${id}/vote`, { method: 'POST', headers: { accept: 'application/json' } });
      expect(json.status).to.equal(200);
      // The API's answer, and the count's words in the page's language for the script to show.
      expect(JSON.parse(json.text)).to.deep.equal({ voted: false, voteCount: 1, label: 'vote' });
    });

    it('when a vote names a return path off the board, then the visitor is sent to the item instead', async () => {
      const id = await apiItem('Return paths');
      for (const unsafe of ['//evil.example/b/default', 'https://evil.example/b/default', '/b/default\\@evil.example', '/elsewhere', '/b/default\r\nSet-Cookie: x=1']) {
        const voted = await browse(server, `/b/default/items/${id}/vote`, { method: 'POST', form: { return: unsafe } });
        expect(voted.status, unsafe).to.equal(303);
        expect(voted.headers.get('location'), unsafe).to.equal(`/b/default/items/${id}`);
      }
    });

    it('when a vote\'s return path climbs out of the board with dot segments, plain or percent-encoded, then the visitor is sent to the item, never to another site (issue 37: open redirect)', async () => {
      const id = await apiItem('Return paths that climb');
      for (const unsafe of ['/b/default/../..//evil.example/', '/b/default/%2e%2e/%2e%2e//evil.example/', '/b/default/.%2E/%2e.//evil.example/b/default', '/b/default/..%5c..%5c/evil.example']) {
        const voted = await browse(server, `/b/default/items/${id}/vote`, { method: 'POST', form: { return: unsafe } });
        expect(voted.status, unsafe).to.equal(303);
        expect(voted.headers.get('location'), unsafe).to.equal(`/b/default/items/${id}`);
      }
      const normal = await browse(server, `/b/default/items/${id}/vote`, { method: 'POST', form: { return: '/b/default/roadmap/../items/x/%2e%2e/..?sortBy=votes' } });
      expect(normal.headers.get('location'), 'a path of the board is sent normalised').to.equal('/b/default/?sortBy=votes');
    });

    it('when a form is posted from another site, or with no sign of where it comes from, then it is refused with a 403 page and nothing changes', async () => {
      const id = await apiItem('Cross-site');
      const refusals: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: server.url, 'sec-fetch-site': 'cross-site' }, { origin: '' }];
      for (const headers of refusals) {
        const page = await browse(server, `/b/default/items/${id}/vote`, { method: 'POST', headers });
        expect(page.status, JSON.stringify(headers)).to.equal(403);
        expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
        expect(page.text).to.include('The form was sent from another site');
      }
      const submitted = await browse(server, '/b/default/new', { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' }, form: { title: 'forged' } });
      expect(submitted.status).to.equal(403);
      expect((await request(server, 'GET', `/api/v1/feedback/${id}/vote`)).body).to.deep.equal({ voted: false, voteCount: 1 });
      const sameOrigin = await browse(server, `/b/default/items/${id}/vote`, { method: 'POST', headers: { origin: '', 'sec-fetch-site': 'same-origin' } });
      expect(sameOrigin.status, 'Sec-Fetch-Site alone is enough').to.equal(303);
    });

    it('when a project, an item or a page is unknown, then the answer is the board\'s HTML 404 page', async () => {
      for (const path of ['/b/nope', '/b/default/items/0194a7d2-0000-7000-8000-000000000000', '/b/default/items/not-an-id', '/b/default/elsewhere']) {
        const page = await browse(server, path);
        expect(page.status, path).to.equal(404);
        expect(page.headers.get('content-type'), path).to.equal('text/html; charset=utf-8');
        expect(page.headers.get('content-security-policy'), path).to.equal(CSP);
        expect(page.text, path).to.include('<h1>Page not found</h1>');
      }
      const wrongMethod = await browse(server, '/b/default', { method: 'DELETE' });
      expect(wrongMethod.status).to.equal(405);
    });

    it('when `feedback board off` and `on` run on a project, then after the project cache bound its board is a 404 and back, and another project\'s board is off until turned on', async () => {
      await server.newKey('acme');
      expect((await browse(server, '/b/acme')).status, 'a project an operator made starts off').to.equal(404);
      const on = await inProcess(['board', 'on', '--project', 'acme', '--json', ...locationOf(server)]);
      expect(on.code, on.stderr).to.equal(0);
      expect(JSON.parse(on.stdout)).to.deep.equal({
        project: 'acme',
        boardEnabled: true,
        path: '/b/acme',
        identifiedVisitors: false,
        frameOrigins: [],
        // Its brand (`feedback board brand`: board-brand.test.ts): none yet.
        name: 'acme',
        description: null,
        accent: null,
        darkAccent: null,
        defaultSort: null,
        logo: null,
        locale: null,
        // Who may comment (`feedback board comments`): end users who name themselves only, by default.
        anonymousComments: false,
        // Whose posts wait for the team (`feedback board moderation`): nobody's, by default.
        moderation: 'none',
        moderationHoldLinks: false,
      });
      // The board's project is cached for BOARD_PROJECT_CACHE_TTL_MS: wait for the change to be seen.
      await until(async () => (await browse(server, '/b/acme')).status === 200, 10_000, 'the board to be on');
      const off = await inProcess(['board', 'off', '--project', 'acme', ...locationOf(server)]);
      expect(off.code, off.stderr).to.equal(0);
      expect(off.stdout).to.include('the board of acme is off');
      await until(async () => (await browse(server, '/b/acme')).status === 404, 10_000, 'the board to be off');
      const unknown = await inProcess(['board', 'on', '--project', 'nope', ...locationOf(server)]);
      expect(unknown.code, 'not found').to.equal(3);
    });

    it('when the roadmap is read, then it has a column per planned, in-progress and completed status, each by votes', async () => {
      const planned = await apiItem('On the roadmap', 'planned');
      const page = await browse(server, '/b/default/roadmap');
      expect(page.status).to.equal(200);
      const columns = [...page.text.matchAll(/<h2 id="column-([\w-]+)">/g)].map((m) => m[1]);
      expect(columns).to.deep.equal(['planned', 'in-progress', 'completed']);
      const plannedColumn = page.text.slice(page.text.indexOf('column-planned'), page.text.indexOf('column-in-progress'));
      expect(plannedColumn).to.include(`/b/default/items/${planned}`);
    });

    it('when a roadmap column has more than 10 items, then the roadmap shows 10 and links to the column\'s own pages, which list what the API lists by votes, 20 a page', async () => {
      const secret = await server.newKey(undefined, 'secret');
      const ids: string[] = [];
      for (let i = 0; i < 23; i++) {
        const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: `Column item ${i}`, endUser: { externalId: 'column-test' } } });
        ids.push(created.body.feedback.id as string);
        expect((await request(server, 'PATCH', `/api/v1/feedback/${ids[i]}`, { apiKey: secret, body: { status: 'completed' } })).status).to.equal(200);
      }
      // The last one made gets the most votes: the column's order is the votes', not the time's.
      for (const voter of ['a', 'b', 'c']) expect((await request(server, 'POST', `/api/v1/feedback/${ids[22]}/vote`, { body: { endUser: { externalId: `column-voter-${voter}` } } })).status).to.equal(200);

      const roadmap = await browse(server, '/b/default/roadmap');
      const completed = roadmap.text.slice(roadmap.text.indexOf('id="column-completed"'));
      expect(occurrences(completed, /<li class="item">/g)).to.equal(10);
      expect(completed).to.include(`/b/default/items/${ids[22]}`);
      const api = async (page: number) => (await request(server, 'GET', `/api/v1/feedback?status=completed&sortBy=votes&limit=20&page=${page}`)).body;
      const total = (await api(1)).total as number;
      expect(completed).to.include(`<a href="/b/default/roadmap/completed">Show all ${total} in this column</a>`);

      for (const page of [1, 2]) {
        const column = await browse(server, `/b/default/roadmap/completed${page === 1 ? '' : `?page=${page}`}`);
        expect(column.status).to.equal(200);
        expect(column.text).to.include('<h1>Completed</h1>');
        const listed = [...column.text.matchAll(/<h2 class="item-title"><a href="\/b\/default\/items\/([0-9a-f-]+)">/g)].map((m) => m[1]);
        expect(listed, `page ${page}`).to.deep.equal((await api(page)).items.map((item: { id: string }) => item.id));
        expect(column.text).to.include(`aria-label="Page ${page}" aria-current="page">${page}</a>`);
        expect(column.text).to.include(`aria-label="Page ${Math.ceil(total / 20)}"`);
      }
      const first = await browse(server, '/b/default/roadmap/completed');
      expect(first.text).to.include('<a href="/b/default/roadmap/completed?page=2" aria-label="Page 2">2</a>');
      expect(first.text).not.to.include('Status: ');
    });

    it('when a roadmap column is asked by an unknown status or an invalid page, then it is the board\'s 404 page or a 400 page that says why', async () => {
      for (const path of ['/b/default/roadmap/nope', '/b/default/roadmap/new', '/b/default/roadmap/PLANNED', '/b/default/roadmap/planned/', '/b/nowhere/roadmap/planned']) {
        const page = await browse(server, path);
        expect(page.status, path).to.equal(404);
        expect(page.headers.get('content-type'), path).to.equal('text/html; charset=utf-8');
        expect(page.text, path).to.include('<h1>Page not found</h1>');
      }
      const refused = await browse(server, '/b/default/roadmap/planned?page=0');
      expect(refused.status).to.equal(400);
      expect(refused.text).to.include('class="error-summary"');
      expect(refused.text).to.include('page must be an integer between 1 and 10000000');
      expect(refused.text, 'no list beside the refusal').not.to.include('class="items"');
    });
  });

  describe(`board posts within the rate limit (${backend.name})`, () => {
    const server = withServer(backend, { rateLimit: 2 });

    it('when an address posts past its budget, then the board answers 429 with Retry-After, and the API\'s keys keep their own budgets', async () => {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Limited' } });
      const id = created.body.feedback.id as string;
      for (let i = 0; i < 2; i++) expect((await browse(server, `/b/default/items/${id}/vote`, { method: 'POST' })).status).to.equal(303);
      const refused = await browse(server, `/b/default/items/${id}/vote`, { method: 'POST' });
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      expect(refused.text).to.include('Too many requests');
      expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).status, 'the key spent one of its own').to.equal(200);
    });
  });
}
