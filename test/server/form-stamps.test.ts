import { expect } from 'chai';
import { boardSignInLink, signBoardToken } from '@feedbackd/sdk/board';
import { changeIdentitySecret, setAnonymousComments, setWidget, startServer } from '@feedbackd/server';
import { silentLogger } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { guardFields, widgetGuardFields } from '../helpers/form-guard.js';
import { sampleSum, scrape } from '../helpers/metrics-text.js';
import { browse, type Page } from '../helpers/team-forms.js';
import { request, withServer, SHORT_BOARD_PROJECT_CACHE_TTL_MS, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/*
 * The spam guard of the board's and the widget's forms (web/kit/form-guard.ts; docs/board.md,
 * "Spam"; docs/widget.md, "Spam"), as issue 49 found it: the widget's submit form had none (one
 * address posted 100 items a minute, public at once), and one fill-time stamp passed for any number
 * of posts, on any form, for any visitor, for a day.
 */

const HOST = 'https://app.example.com';
const SPENT = 'This form was sent already';

/** A widget form post as the panel's page sends it (same origin), with the panel's session when given. */
async function widgetPost(server: { url: string }, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
  const response = await fetch(`${server.url}/w/default/new`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ origin: HOST, ...fields }), headers: { 'sec-fetch-site': 'same-origin', ...headers } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const itemPath = (id: string) => `/b/default/items/${id}`;

async function titles(server: TestServer, like: string): Promise<string[]> {
  return (await server.sql<{ title: string }>('select title from feedback where title like ? order by title', [like])).map((row) => row.title);
}

for (const backend of backends()) {
  describe(`form stamps: the widget's spam guard, stamps bound and spent once (${backend.name})`, () => {
    const server = withServer(backend, { metricsPort: 0, boardProjectCacheTtlMs: SHORT_BOARD_PROJECT_CACHE_TTL_MS });
    let identity: string;

    before(async () => {
      const em = () => server.server.orm.em.fork();
      identity = ((await changeIdentitySecret(em(), 'default', 'rotate')) as { secret: string }).secret;
      await setAnonymousComments(em(), 'default', true);
      await setWidget(em(), 'default', true, [HOST]);
      await server.boardSettingsSeen();
      await until(async () => (await fetch(`${server.url}/w/default?origin=${encodeURIComponent(HOST)}`)).status === 200);
    });

    async function newItem(title: string): Promise<string> {
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId: 'stamp-submitter' } } });
      expect(created.status).to.equal(201);
      return created.body.feedback.id as string;
    }

    async function boardSession(externalId: string): Promise<string> {
      const link = new URL(boardSignInLink({ serverUrl: server.url, project: 'default', secret: identity, user: { externalId, name: externalId } }));
      const answer = await browse(server, link.pathname + link.search);
      expect(answer.status, answer.text).to.equal(303);
      return answer.headers.get('set-cookie')!.split(';')[0]!;
    }

    async function widgetSession(externalId: string): Promise<Record<string, string>> {
      const token = signBoardToken({ project: 'default', secret: identity, user: { externalId } });
      const exchanged = await fetch(`${server.url}/w/default/session`, {
        method: 'POST',
        body: new URLSearchParams({ origin: HOST, token }),
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(exchanged.status).to.equal(200);
      return { 'x-feedback-session': ((await exchanged.json()) as { session: string }).session };
    }

    it("when a bot posts the widget's submit form without reading it (issue 49: one address posted 100 items a minute, public at once), then every post is refused (400) with the form again, and nothing is posted", async () => {
      const before = await scrape(server.server.metricsUrl!);
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => widgetPost(server, { title: `Widget bot ${String(i).padStart(2, '0')}`, type: 'idea' })));
      for (const answer of answers) {
        expect(answer.status).to.equal(400);
        expect(answer.text).to.include('open too long').and.include('name="shown"');
      }
      expect(await titles(server, 'Widget bot%')).to.deep.equal([]);
      const after = await scrape(server.server.metricsUrl!);
      expect(sampleSum(after, 'feedback_board_form_refusals_total', { form: 'widget', reason: 'bad_stamp' }) - sampleSum(before, 'feedback_board_form_refusals_total', { form: 'widget', reason: 'bad_stamp' })).to.equal(30);
    });

    it("when the widget's honeypot is filled or its stamp forged, then the post is refused (400) with what was typed kept and the reason, and each refusal is counted", async () => {
      const before = await scrape(server.server.metricsUrl!);
      const guard = await widgetGuardFields(server.url, 'default', HOST);
      const cases: [Record<string, string>, string][] = [
        [{ ...guard, website: 'https://spam.example' }, 'a field that must stay empty was filled in'],
        // A signature's last character changed in the bits it carries, and in those base64url
        // decoding drops (the same bytes: a text the server never issued must not pass either).
        [{ ...guard, shown: lastCharacterShifted(guard.shown!, 32) }, 'open too long'],
        [{ ...guard, shown: lastCharacterShifted(guard.shown!, 1) }, 'open too long'],
      ];
      for (const [fields, said] of cases) {
        const refused = await widgetPost(server, { ...fields, title: 'Widget honeypot bait', description: 'Cheap things' });
        expect(refused.status).to.equal(400);
        expect(refused.text).to.match(/role="alert"[\s\S]*/).and.include(said);
        expect(refused.text).to.include('value="Widget honeypot bait"').and.include('Cheap things</textarea>');
      }
      expect(await titles(server, 'Widget honeypot%')).to.deep.equal([]);
      const after = await scrape(server.server.metricsUrl!);
      const grew = (reason: string) => sampleSum(after, 'feedback_board_form_refusals_total', { form: 'widget', reason }) - sampleSum(before, 'feedback_board_form_refusals_total', { form: 'widget', reason });
      expect(grew('honeypot')).to.equal(1);
      expect(grew('bad_stamp')).to.equal(2);
      // The same form read and sent as a person does goes out.
      const sent = await widgetPost(server, { ...(await widgetGuardFields(server.url, 'default', HOST)), title: 'Widget honest post', type: 'idea' });
      expect(sent.status, sent.text).to.equal(303);
      expect(await titles(server, 'Widget honest%')).to.deep.equal(['Widget honest post']);
    });

    it('when one fill-time stamp is sent twice (issue 49: reusable for any number of posts for a day), then the second post is refused (400) with the form again, on the board’s submit form, a comment, a reply and the widget’s form', async () => {
      const before = await scrape(server.server.metricsUrl!);
      const submitGuard = guardFields((await browse(server, '/b/default/new')).text, 'submit');
      const first = await browse(server, '/b/default/new', { method: 'POST', form: { ...submitGuard, title: 'Stamp twice board 1' } });
      expect(first.status, first.text).to.equal(303);
      const second = await browse(server, '/b/default/new', { method: 'POST', form: { ...submitGuard, title: 'Stamp twice board 2' } });
      expect(second.status).to.equal(400);
      expect(second.text).to.include(SPENT).and.include('value="Stamp twice board 2"');
      expect(await titles(server, 'Stamp twice board%')).to.deep.equal(['Stamp twice board 1']);

      const id = await newItem('Stamp twice item');
      const page = await browse(server, itemPath(id));
      const commentGuard = guardFields(page.text, 'comment');
      expect((await browse(server, `${itemPath(id)}/comments`, { method: 'POST', form: { ...commentGuard, content: 'First comment' } })).status).to.equal(303);
      const again = await browse(server, `${itemPath(id)}/comments`, { method: 'POST', form: { ...commentGuard, content: 'Second comment' } });
      expect(again.status).to.equal(400);
      expect(again.text).to.include(SPENT).and.include('Second comment</textarea>');
      const [top] = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments as { id: string }[];
      const replyGuard = guardFields((await browse(server, itemPath(id))).text, `reply-${top!.id}`);
      const reply = (content: string) => browse(server, `${itemPath(id)}/comments`, { method: 'POST', form: { ...replyGuard, parentId: top!.id, content }, headers: { accept: 'application/json' } });
      const replied = await reply('First reply');
      expect(replied.status).to.equal(201);
      const next = (JSON.parse(replied.text) as { stamp: string }).stamp;
      expect(next, 'the script is given the form’s next stamp').to.be.a('string').and.not.equal(replyGuard.shown);
      const twice = await reply('Second reply');
      expect(twice.status).to.equal(400);
      expect(JSON.parse(twice.text)).to.include({ error: 'This form was sent already. Check your text and send it again.' });
      const withNext = await browse(server, `${itemPath(id)}/comments`, { method: 'POST', form: { ...replyGuard, shown: next, parentId: top!.id, content: 'Second reply' }, headers: { accept: 'application/json' } });
      expect(withNext.status, 'the next stamp passes once').to.equal(201);
      expect(((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments as { content: string }[]).map((c) => c.content)).to.deep.equal(['First comment', 'First reply', 'Second reply']);

      const widgetGuard = await widgetGuardFields(server.url, 'default', HOST);
      expect((await widgetPost(server, { ...widgetGuard, title: 'Stamp twice widget 1' })).status).to.equal(303);
      const widgetAgain = await widgetPost(server, { ...widgetGuard, title: 'Stamp twice widget 2' });
      expect(widgetAgain.status).to.equal(400);
      expect(widgetAgain.text).to.include(SPENT).and.include('value="Stamp twice widget 2"');
      expect(await titles(server, 'Stamp twice widget%')).to.deep.equal(['Stamp twice widget 1']);

      const after = await scrape(server.server.metricsUrl!);
      const grew = (form: string) => sampleSum(after, 'feedback_board_form_refusals_total', { form, reason: 'spent_stamp' }) - sampleSum(before, 'feedback_board_form_refusals_total', { form, reason: 'spent_stamp' });
      expect([grew('submit'), grew('comment'), grew('widget')]).to.deep.equal([1, 2, 1]);
    });

    it('when one stamp is sent by 12 posts at once, then exactly one of them is posted', async () => {
      const guard = guardFields((await browse(server, '/b/default/new')).text, 'submit');
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => browse(server, '/b/default/new', { method: 'POST', form: { ...guard, title: `Stamp race ${String(i).padStart(2, '0')}` } })));
      expect(answers.map((answer) => answer.status).sort()).to.deep.equal([303, ...Array<number>(11).fill(400)]);
      expect(await titles(server, 'Stamp race%')).to.have.length(1);
    });

    it('when a stamp is sent with another form (the board’s or the widget’s), for another item or comment, or by another visitor than it was shown to, then it is refused (400) and nothing is posted', async () => {
      const a = await newItem('Stamp bound A');
      const b = await newItem('Stamp bound B');
      const submitGuard = guardFields((await browse(server, '/b/default/new')).text, 'submit');
      const commentGuardA = guardFields((await browse(server, itemPath(a))).text, 'comment');
      const widgetGuard = await widgetGuardFields(server.url, 'default', HOST);
      const refusals: [string, Page][] = [
        ['a submit stamp on a comment', await browse(server, `${itemPath(a)}/comments`, { method: 'POST', form: { ...submitGuard, content: 'Wrong form' } })],
        ['item A’s comment stamp on item B', await browse(server, `${itemPath(b)}/comments`, { method: 'POST', form: { ...commentGuardA, content: 'Wrong item' } })],
        ['item A’s comment stamp as a reply', await browse(server, `${itemPath(a)}/comments`, { method: 'POST', form: { ...commentGuardA, content: 'Wrong parent', parentId: '0190f1a2-3b4c-7d5e-8f60-718293a4b5c6' } })],
        ['a comment stamp on the submit form', await browse(server, '/b/default/new', { method: 'POST', form: { ...commentGuardA, title: 'Stamp bound wrong form' } })],
        ['the widget’s stamp on the board', await browse(server, '/b/default/new', { method: 'POST', form: { ...widgetGuard, title: 'Stamp bound widget on board' } })],
        ['the board’s stamp in the widget', await widgetPost(server, { ...submitGuard, title: 'Stamp bound board in widget' })],
      ];
      const ada = await boardSession('stamp-ada');
      const grace = await boardSession('stamp-grace');
      const adaGuard = guardFields((await browse(server, '/b/default/new', { cookie: ada })).text, 'submit');
      refusals.push(['Ada’s stamp sent anonymously', await browse(server, '/b/default/new', { method: 'POST', form: { ...adaGuard, title: 'Stamp bound anonymous' } })]);
      refusals.push(['Ada’s stamp sent by Grace', await browse(server, '/b/default/new', { method: 'POST', form: { ...adaGuard, title: 'Stamp bound Grace' }, cookie: grace })]);
      const anonymousGuard = guardFields((await browse(server, '/b/default/new')).text, 'submit');
      refusals.push(['an anonymous stamp sent by Ada', await browse(server, '/b/default/new', { method: 'POST', form: { ...anonymousGuard, title: 'Stamp bound Ada' }, cookie: ada })]);
      const panelAda = await widgetSession('stamp-panel-ada');
      const panelGrace = await widgetSession('stamp-panel-grace');
      const panelAdaGuard = await widgetGuardFields(server.url, 'default', HOST, panelAda);
      refusals.push(['the panel’s stamp for Ada sent by Grace', await widgetPost(server, { ...panelAdaGuard, title: 'Stamp bound panel Grace' }, panelGrace)]);
      refusals.push(['the panel’s stamp for Ada sent anonymously', await widgetPost(server, { ...panelAdaGuard, title: 'Stamp bound panel anonymous' })]);
      for (const [what, answer] of refusals) {
        expect(answer.status, what).to.equal(400);
        expect(answer.text, what).to.include('open too long');
      }
      expect(await titles(server, 'Stamp bound %')).to.deep.equal(['Stamp bound A', 'Stamp bound B']);
      for (const id of [a, b]) expect((await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback.comments).to.deep.equal([]);
      // Each stamp still passes once on its own form, for its own visitor: a refusal spends none.
      expect((await browse(server, '/b/default/new', { method: 'POST', form: { ...adaGuard, title: 'Stamp bound by Ada' }, cookie: ada })).status).to.equal(303);
      expect((await widgetPost(server, { ...panelAdaGuard, title: 'Stamp bound panel Ada' }, panelAda)).status).to.equal(303);
      expect((await browse(server, `${itemPath(a)}/comments`, { method: 'POST', form: { ...commentGuardA, content: 'Right item' } })).status).to.equal(303);
    });
  });

  describe(`form stamps: the widget's fill time (${backend.name})`, () => {
    const server = withServer(backend, { boardMinFillMs: 60_000 });

    before(async () => {
      await setWidget(server.server.orm.em.fork(), 'default', true, [HOST]);
      await until(async () => (await fetch(`${server.url}/w/default?origin=${encodeURIComponent(HOST)}`)).status === 200);
    });

    it("when the widget's form is sent sooner than a person fills it, then it is refused (400) with what was typed and the reason, and nothing is posted", async () => {
      const guard = await widgetGuardFields(server.url, 'default', HOST);
      const refused = await widgetPost(server, { ...guard, title: 'Widget too quick', description: 'Typed in no time' });
      expect(refused.status).to.equal(400);
      expect(refused.text).to.match(/role="alert"[\s\S]*faster than a person types/);
      expect(refused.text).to.include('value="Widget too quick"').and.include('Typed in no time</textarea>');
      expect(await titles(server, 'Widget too%')).to.deep.equal([]);
    });
  });
}

describe('form stamps across processes: two servers on one PostgreSQL', function () {
  const postgres = backends().find((backend) => backend.name === 'postgres');
  if (!postgres) return;
  const server = withServer(postgres);

  it('when a stamp was spent through one server, then a second server on the same database refuses it (the spend is in the database, not in a process)', async () => {
    const second = await startServer({ ...server.database.location, port: 0, host: '127.0.0.1', rateLimit: 1_000_000, boardMinFillMs: 0, logger: silentLogger });
    try {
      const guard = guardFields((await browse(server, '/b/default/new')).text, 'submit');
      expect((await browse(second, '/b/default/new', { method: 'POST', form: { ...guard, title: 'Across processes 1' } })).status, 'the other server takes a stamp this one made').to.equal(303);
      const again = await browse(server, '/b/default/new', { method: 'POST', form: { ...guard, title: 'Across processes 2' } });
      expect(again.status).to.equal(400);
      expect(again.text).to.include(SPENT);
      expect(await titles(server, 'Across processes%')).to.deep.equal(['Across processes 1']);
    } finally {
      await second.close();
    }
  });
});

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * `text` with its last base64url character's value changed by `flip` (xor): 32 changes a bit the
 * signature's bytes hold; 1, one of the two bits that the decoding of a 32-byte signature drops.
 */
function lastCharacterShifted(text: string, flip: number): string {
  const value = BASE64URL.indexOf(text.at(-1)!);
  return text.slice(0, -1) + BASE64URL[value ^ flip];
}
