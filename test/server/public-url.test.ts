import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, withServer, type TestServer } from '../helpers/test-server.js';

/**
 * `feedback serve --public-url` (issue 37: no Host allow-list, so a DNS-rebinding page passed the
 * board's origin check): with it, the board's and the team's pages answer only for its host, take
 * posts only from its origin, and redirect to it; without it, every host is answered as before.
 */

const PUBLIC = 'https://feedback.example.com';

type Answer = { status: number; location: string | undefined; text: string };

/** A request to the server with the Host a browser would send for `host` (fetch cannot set it). */
function asHost(server: TestServer, host: string, path: string, init: { method?: string; headers?: Record<string, string>; form?: Record<string, string> } = {}): Promise<Answer> {
  const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
  const headers: Record<string, string> = { host, accept: 'text/html', ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...init.headers };
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: init.method ?? 'GET', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, location: response.headers.location, text }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

async function newItem(server: TestServer, title: string): Promise<string> {
  const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId: 'public-url' } } });
  expect(created.status).to.equal(201);
  return created.body.feedback.id as string;
}

const votes = async (server: TestServer, id: string) => (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.voteCount as number;

for (const backend of backends()) {
  describe(`public URL: a Host allow-list for the pages (${backend.name})`, () => {
    const server = withServer(backend, { publicUrl: PUBLIC });

    it('when a page is asked for by another host (a DNS-rebinding page, the bare address), then it is a 421 page that names the public URL; by the public host it is served (issue 37)', async () => {
      const port = new URL(server.url).port;
      for (const host of ['feedback.example.com', 'FEEDBACK.example.com', 'feedback.example.com:443']) {
        expect((await asHost(server, host, '/b/default')).status, host).to.equal(200);
      }
      for (const host of [`rebind.example:${port}`, `127.0.0.1:${port}`, 'feedback.example.com:8443', 'feedback.example.com.evil.example', 'evil.example']) {
        for (const path of ['/b/default', '/team', '/team/sign-in']) {
          const page = await asHost(server, host, path);
          expect(page.status, `${host} ${path}`).to.equal(421);
          expect(page.text, `${host} ${path}`).to.include('This page is at another address').and.include(`${PUBLIC}: open them there`);
        }
      }
      // The API is not the pages': a key is what it asks for, whatever the host.
      expect((await request(server, 'GET', '/api/v1/feedback')).status).to.equal(200);
    });

    it('when a rebinding page posts a vote with its own name as Host, even as same-origin, then it is refused and nothing is counted (issue 37)', async () => {
      const id = await newItem(server, 'Rebound vote');
      const port = new URL(server.url).port;
      const rebound = `rebind.example:${port}`;
      for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { origin: `http://${rebound}` }] as Record<string, string>[]) {
        const posted = await asHost(server, rebound, `/b/default/items/${id}/vote`, { method: 'POST', headers, form: {} });
        expect(posted.status, JSON.stringify(headers)).to.equal(421);
      }
      // On the public host, an Origin other than the public one is another site.
      for (const origin of [`http://${rebound}`, 'http://feedback.example.com', server.url]) {
        const posted = await asHost(server, 'feedback.example.com', `/b/default/items/${id}/vote`, { method: 'POST', headers: { origin }, form: {} });
        expect(posted.status, origin).to.equal(403);
      }
      expect(await votes(server, id)).to.equal(1);
    });

    it('when a visitor posts from the public origin, then the vote counts and every redirect of the pages is on the public URL', async () => {
      const id = await newItem(server, 'Public vote');
      const voted = await asHost(server, 'feedback.example.com', `/b/default/items/${id}/vote`, { method: 'POST', headers: { origin: PUBLIC }, form: { return: '/b/default?sortBy=votes' } });
      expect(voted.status).to.equal(303);
      expect(voted.location).to.equal(`${PUBLIC}/b/default?sortBy=votes`);
      const fetched = await asHost(server, 'feedback.example.com', `/b/default/items/${id}/vote`, { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' }, form: { return: '/b/default/../..//evil.example/' } });
      expect(fetched.location, 'a climbing return path still goes to the item, on the public URL').to.equal(`${PUBLIC}/b/default/items/${id}`);
      expect(await votes(server, id)).to.equal(1);
      const team = await asHost(server, 'feedback.example.com', '/team');
      expect(team.status).to.equal(303);
      expect(team.location).to.equal(`${PUBLIC}/team/sign-in`);
      const root = await asHost(server, 'feedback.example.com', '/');
      expect(root.status).to.equal(302);
    });
  });

  describe(`without a public URL, every host is answered as before (${backend.name})`, () => {
    const server = withServer(backend);

    it('when a page is asked for by any host, then it is served, a post whose Origin is that host counts, and redirects are paths', async () => {
      const port = new URL(server.url).port;
      const host = `rebind.example:${port}`;
      expect((await asHost(server, host, '/b/default')).status).to.equal(200);
      const id = await newItem(server, 'Any host');
      const voted = await asHost(server, host, `/b/default/items/${id}/vote`, { method: 'POST', headers: { origin: `http://${host}` }, form: {} });
      expect(voted.status).to.equal(303);
      expect(voted.location).to.equal(`/b/default/items/${id}`);
      expect(await votes(server, id)).to.equal(2);
    });
  });
}

describe('feedback serve --public-url', () => {
  it('when it is not one exact origin (a path, a wildcard, another scheme), then serve stops with a usage error before touching a database; FEEDBACK_PUBLIC_URL is read the same way', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'feedback-public-url-'));
    try {
      for (const given of ['https://feedback.example.com/feedback', 'https://*', 'https://*.example.com', 'ftp://feedback.example.com', 'feedback.example.com', 'https://user@feedback.example.com']) {
        const run = await inProcess(['serve', '--public-url', given, '--data-dir', dataDir, '--port', '0']);
        expect(run.code, given).to.equal(2);
        expect(run.stderr, given).to.include('--public-url must be the origin the public reaches the server at').and.include(`not "${given}"`);
      }
      process.env.FEEDBACK_PUBLIC_URL = 'https://feedback.example.com/path';
      try {
        const run = await inProcess(['serve', '--data-dir', dataDir, '--port', '0']);
        expect(run.code).to.equal(2);
        expect(run.stderr).to.include('not "https://feedback.example.com/path"');
      } finally {
        delete process.env.FEEDBACK_PUBLIC_URL;
      }
      expect(readdirSync(dataDir), 'no database was made').to.deep.equal([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
