import { expect } from 'chai';
import { boardSignInLink } from '@feedbackd/sdk/board';
import { changeIdentitySecret } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { request, withServer, SHORT_BOARD_PROJECT_CACHE_TTL_MS } from '../helpers/test-server.js';

type Page = { status: number; headers: Headers; text: string };

/** A board request as a browser without script sends it: a page, or a form post from the board's own origin. */
async function browse(server: { url: string }, path: string, init: { form?: Record<string, string>; cookie?: string } = {}): Promise<Page> {
  const headers: Record<string, string> = { accept: 'text/html' };
  if (init.cookie) headers.cookie = init.cookie;
  let body: string | undefined;
  if (init.form) {
    body = new URLSearchParams(init.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers.origin = server.url;
  }
  const response = await fetch(server.url + path, { method: init.form ? 'POST' : 'GET', headers, body, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The board's Subscribe / Unsubscribe form over HTTP, without script (docs/notifications.md). */
for (const backend of backends()) {
  describe(`board: subscribing (${backend.name})`, () => {
    const server = withServer(backend, { boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });
    let cookie: string;

    before(async () => {
      const made = (await changeIdentitySecret(server.server.orm.em.fork(), 'default', 'rotate')) as { secret: string };
      await server.boardSettingsSeen();
      const link = new URL(boardSignInLink({ serverUrl: server.url, project: 'default', secret: made.secret, user: { externalId: 'board-follower' } }));
      const answer = await browse(server, link.pathname + link.search);
      expect(answer.status, answer.text).to.equal(303);
      cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
    });

    const submit = async (title: string) => (await request(server, 'POST', '/api/v1/feedback', { body: { title } })).body.feedback.id as string;
    const subscribed = async (id: string) => (await request(server, 'GET', `/api/v1/feedback/${id}/subscription?endUserId=board-follower`)).body.subscribed as boolean;

    it('when an identified visitor posts the form, then they are subscribed or unsubscribed and sent back to the item, whose button then says the opposite', async () => {
      const id = await submit('Follow me');
      expect((await browse(server, `/b/default/items/${id}`, { cookie })).text).to.include('>Subscribe</button>');
      const on = await browse(server, `/b/default/items/${id}/subscription`, { form: { subscribe: 'yes' }, cookie });
      expect(on.status, on.text).to.equal(303);
      expect(on.headers.get('location')).to.equal(`/b/default/items/${id}`);
      expect(await subscribed(id)).to.equal(true);
      expect((await browse(server, `/b/default/items/${id}`, { cookie })).text).to.include('>Unsubscribe</button>');
      const off = await browse(server, `/b/default/items/${id}/subscription`, { form: { subscribe: 'no' }, cookie });
      expect(off.status, off.text).to.equal(303);
      expect(await subscribed(id)).to.equal(false);
      // The unsubscribe sticks: a vote from the board does not undo it.
      expect((await browse(server, `/b/default/items/${id}/vote`, { form: {}, cookie })).status).to.equal(303);
      expect(await subscribed(id)).to.equal(false);
    });

    it('when the form is posted by an anonymous visitor, with a wrong value, or for an unknown item, then the board answers 403, 400 and 404 pages, never a 5xx', async () => {
      const id = await submit('Refusals');
      const anonymous = await browse(server, `/b/default/items/${id}/subscription`, { form: { subscribe: 'yes' } });
      expect(anonymous.status).to.equal(403);
      expect(anonymous.text).to.include('Sign in through the app that sent you here to subscribe');
      expect((await browse(server, `/b/default/items/${id}`)).text, 'no button for an anonymous visitor').to.not.include('class="subscription"');
      const wrong = await browse(server, `/b/default/items/${id}/subscription`, { form: { subscribe: 'maybe' }, cookie });
      expect(wrong.status).to.equal(400);
      const unknown = await browse(server, '/b/default/items/00000000-0000-4000-8000-000000000000/subscription', { form: { subscribe: 'yes' }, cookie });
      expect(unknown.status).to.equal(404);
      const notAnId = await browse(server, '/b/default/items/nope/subscription', { form: { subscribe: 'no' }, cookie });
      expect(notAnId.status).to.equal(404);
    });
  });
}
