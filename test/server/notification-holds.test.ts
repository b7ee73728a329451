import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { ParsedMail } from 'mailparser';
import { mailSender, NOTIFY_HOLD_MAX_SECONDS, RELEASE_DUE, type MailSender } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { subscribe } from '../helpers/subscriptions.js';
import { browse, sessionCookie, splitUndo } from '../helpers/team-forms.js';
import { request, withServer, type TestServer, type TestServerOptions } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';
import { startReceiver, type Received } from '../helpers/webhook-receiver.js';

/*
 * Held notifications (issue 49, finding 5: "An undone bulk status change still mails every
 * subscriber about both moves and sends the notification.created events"; docs/notifications.md,
 * "Held while the Undo is offered"). The team's bulk change holds its notifications while its Undo
 * can take them back: an Undo before they go out sends nothing; an Undo after is a change of its
 * own, told like any other. Each test runs against a real SMTP server and a real webhook receiver.
 */

const SECRET = 'notification-holds-tests-secret-0123456789';
const FROM = 'Acme <feedback@acme.example>';

interface CreatedEvent {
  type: string;
  data: { notification: { id: string; kind: string; from?: string; to?: string; feedback?: { id: string } }; recipients: { externalId: string }[] };
}

/** The notification.created events a receiver got about `item`, in the order they arrived. */
function createdAbout(received: Received[], item: string): CreatedEvent[] {
  return received.map((r) => JSON.parse(r.body) as CreatedEvent).filter((e) => e.type === 'notification.created' && e.data.notification.feedback?.id === item);
}

/** The moves a message tells of ("moved from New to Planned"), in its order. */
function movesIn(mail: ParsedMail): string[] {
  return [...(mail.text ?? '').matchAll(/moved from ([\w ]+?) to ([\w ]+?)\b[.:]/g)].map((m) => `${m[1]}>${m[2]}`);
}

/** A team member signed in with a secret key: the session's cookie. */
async function signIn(server: TestServer, secretKey: string): Promise<string> {
  const link = await request(server, 'POST', '/api/v1/team/sign-in-links', { apiKey: secretKey });
  expect(link.status, JSON.stringify(link.body)).to.equal(201);
  return sessionCookie(await browse(server, link.body.path));
}

/** The inbox's bulk change of `ids` to `status`: the undo token its redirect carries. */
async function bulkChange(server: TestServer, cookie: string, ids: string[], status: string): Promise<string> {
  const changed = await browse(server, '/team/items/status', { method: 'POST', cookie, form: { id: ids, status, return: '/team?status=' } });
  expect(changed.status, changed.text).to.equal(303);
  const { undo } = splitUndo(changed.headers.get('location'));
  expect(undo, 'an undo token').to.be.a('string');
  return undo!;
}

/** The banner's Undo: how many items it put back. */
async function undoChange(server: TestServer, cookie: string, undo: string): Promise<URLSearchParams> {
  const undone = await browse(server, '/team/items/status/undo', { method: 'POST', cookie, form: { undo, return: '/team?status=' } });
  expect(undone.status, undone.text).to.equal(303);
  return new URL(undone.headers.get('location')!, 'http://team.invalid').searchParams;
}

for (const backend of backends()) {
  describe(`held notifications of the team's bulk change (${backend.name})`, () => {
    let smtp: TestSmtp;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    // The default window (600 s): what the server's own jobs hold, they release after 10 minutes,
    // so within a test only the test's own release and sender, on a clock moved ahead, let it out.
    const options: TestServerOptions = { voterSecret: SECRET, mailFrom: FROM, notifyWindowSeconds: 600, webhooksAllowPrivate: true };
    before(async () => {
      smtp = await startSmtp();
      receiver = await startReceiver();
      options.smtpUrl = smtp.url;
    });
    after(async () => {
      await smtp?.stop();
      await receiver?.close();
    });
    const server = withServer(backend, options);
    let secretKey: string;
    const senders: MailSender[] = [];
    before(async () => {
      secretKey = await server.newKey(undefined, 'secret');
      const hook = await request(server, 'POST', '/api/v1/webhooks', { apiKey: secretKey, body: { url: receiver.url, events: ['notification.created'] } });
      expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    });
    after(() => senders.forEach((sender) => sender.close()));
    afterEach(function () {
      if (this.currentTest?.state === 'failed') console.log(server.logs.filter((line) => !line.startsWith('INFO')).join('\n'));
    });

    /** The clock of the test's release and mail sender: `ahead` seconds past now. */
    const at = (ahead: number) => new Date(Date.now() + ahead * 1000);
    /** Releases, as the machine's jobs would at `ahead` seconds from now, every hold due then. */
    const releaseAt = async (ahead: number) => (await server.server.sql.query<{ released: number }>('', RELEASE_DUE, [at(ahead).toISOString(), NOTIFY_HOLD_MAX_SECONDS]))[0]!.released;
    /** Sends, as the server's mail sender would at `ahead` seconds from now, every message due then. */
    const sendAt = async (ahead: number) => {
      const sender = mailSender({
        sql: server.server.sql,
        logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
        smtpUrl: smtp.url,
        from: FROM,
        windowSeconds: 600,
        origin: server.url,
        serverSecret: Buffer.from(SECRET),
        now: () => at(ahead),
      });
      senders.push(sender);
      return sender.sendDue();
    };
    const submit = async (title: string): Promise<string> => {
      const res = await request(server, 'POST', '/api/v1/feedback', { body: { title } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.feedback.id as string;
    };
    const logOf = async (item: string) => {
      const log = await request(server, 'GET', '/api/v1/notifications?limit=100', { apiKey: secretKey });
      expect(log.status).to.equal(200);
      return (log.body.items as { feedbackId: string; mailState: string }[]).filter((row) => row.feedbackId === item);
    };
    const eventsWritten = async (item: string) =>
      (await server.sql<{ n: number }>(`select count(*)::int as n from webhook_events where type = 'notification.created' and data->'notification'->'feedback'->>'id' = ?`, [item]))[0]!.n;

    it('when a bulk status change is undone before its notifications go out, then no subscriber is mailed about either move, no notification.created is sent and the log keeps nothing of it (issue 49: an undone bulk change mailed both moves)', async function () {
      this.timeout(60_000);
      const marker = `held-${Date.now()}`;
      const [a, b, kept] = [await submit(`${marker} a`), await submit(`${marker} b`), await submit(`${marker} kept`)];
      await subscribe(server, a, [{ externalId: `${marker}-ann`, email: `${marker}-ann@example.com` }, { externalId: `${marker}-abe`, email: null }]);
      await subscribe(server, b, [{ externalId: `${marker}-bea`, email: `${marker}-bea@example.com` }]);
      await subscribe(server, kept, [{ externalId: `${marker}-kim`, email: `${marker}-kim@example.com` }]);
      const cookie = await signIn(server, secretKey);

      const undo = await bulkChange(server, cookie, [a, b], 'planned');
      // The control: a bulk change that nobody undoes.
      await bulkChange(server, cookie, [kept], 'planned');
      // Held: the rows are written (the log shows them pending), no event yet.
      expect((await logOf(a)).map((row) => row.mailState).sort()).to.deep.equal(['pending', 'skipped']);
      expect(await eventsWritten(a)).to.equal(0);

      // b is put back by hand through the API, a by the banner's Undo: either way the move back
      // takes the held change with it.
      expect((await request(server, 'PATCH', `/api/v1/feedback/${b}`, { apiKey: secretKey, body: { status: 'new' } })).status).to.equal(200);
      const undone = await undoChange(server, cookie, undo);
      expect([undone.get('restored'), undone.get('kept')]).to.deep.equal(['1', '1']);
      expect(await logOf(a), 'nothing in the log for the undone change').to.deep.equal([]);
      expect(await logOf(b)).to.deep.equal([]);

      // Time passes beyond every hold and window: what is due is released and mailed.
      expect(await releaseAt(NOTIFY_HOLD_MAX_SECONDS + 5)).to.be.at.least(1);
      await sendAt(NOTIFY_HOLD_MAX_SECONDS + 5);
      await until(() => createdAbout(receiver.received, kept).length === 1, 20_000, 'the control change told through the webhook');
      expect(smtp.to(`${marker}-kim@example.com`).map(movesIn)).to.deep.equal([['New>Planned']]);
      expect((await logOf(kept)).map((row) => row.mailState)).to.deep.equal(['sent']);
      await sendAt(2 * NOTIFY_HOLD_MAX_SECONDS);

      expect(smtp.to(`${marker}-ann@example.com`), 'no mail about a').to.deep.equal([]);
      expect(smtp.to(`${marker}-bea@example.com`), 'no mail about b').to.deep.equal([]);
      expect(createdAbout(receiver.received, a), 'no notification.created about a').to.deep.equal([]);
      expect(createdAbout(receiver.received, b), 'no notification.created about b').to.deep.equal([]);
      expect(await eventsWritten(a)).to.equal(0);
      expect(await eventsWritten(b)).to.equal(0);
      expect(await server.sql('select 1 from notification_holds h where h.feedback_id in (?, ?)', [a, b])).to.deep.equal([]);
      // The items' own history still has both moves: only the subscribers' news was taken back.
      const history = await server.sql<{ from_status: string; to_status: string }>('select from_status, to_status from feedback_status_changes where feedback_id = ? order by id', [a]);
      expect(history.map((row) => `${row.from_status}>${row.to_status}`)).to.deep.equal(['new>planned', 'planned>new']);
    });

    it('when a bulk change is undone after its notifications went out, then the undo is a change of its own and subscribers are told of both moves', async function () {
      this.timeout(60_000);
      const marker = `released-${Date.now()}`;
      const item = await submit(`${marker} item`);
      await subscribe(server, item, [{ externalId: `${marker}-ann`, email: `${marker}-ann@example.com` }]);
      const cookie = await signIn(server, secretKey);
      const undo = await bulkChange(server, cookie, [item], 'planned');
      expect(await releaseAt(NOTIFY_HOLD_MAX_SECONDS + 5)).to.be.at.least(1);
      await sendAt(NOTIFY_HOLD_MAX_SECONDS + 5);
      await until(() => createdAbout(receiver.received, item).length === 1, 20_000, 'the change told through the webhook');
      expect(smtp.to(`${marker}-ann@example.com`).map(movesIn)).to.deep.equal([['New>Planned']]);

      // The Undo is still offered (its token lasts as long as a hold can), but what went out stays out.
      const undone = await undoChange(server, cookie, undo);
      expect(undone.get('restored')).to.equal('1');
      await until(() => createdAbout(receiver.received, item).length === 2, 20_000, 'the undo told through the webhook');
      await sendAt(2 * NOTIFY_HOLD_MAX_SECONDS + 10);
      const events = createdAbout(receiver.received, item).map((e) => `${e.data.notification.from}>${e.data.notification.to}`);
      expect(events).to.deep.equal(['new>planned', 'planned>new']);
      expect(smtp.to(`${marker}-ann@example.com`).map(movesIn)).to.deep.equal([['New>Planned'], ['Planned>New']]);
      expect((await logOf(item)).map((row) => row.mailState)).to.deep.equal(['sent', 'sent']);
    });

    it('when the release of a held change, the mail sender and the undo race, then the change and its undo are each told in full or not at all', async function () {
      this.timeout(180_000);
      const cookie = await signIn(server, secretKey);
      const label: Record<string, string> = { new: 'New', planned: 'Planned' };
      for (let round = 0; round < 8; round++) {
        const marker = `race-${Date.now()}-${round}`;
        const item = await submit(marker);
        await subscribe(server, item, [{ externalId: marker, email: `${marker}@example.com` }]);
        const undo = await bulkChange(server, cookie, [item], 'planned');
        // The release and the sender start a little later each round, so that rounds fall on either
        // side of the undo and in between (which one wins is not asserted: what each outcome leaves is).
        // The stagger is the subject, not a wait for anything.
        const late = async <T>(run: () => Promise<T>) => {
          await sleep(round * 25);
          return run();
        };
        await Promise.all([late(() => releaseAt(NOTIFY_HOLD_MAX_SECONDS + 5)), late(() => sendAt(NOTIFY_HOLD_MAX_SECONDS + 5)), undoChange(server, cookie, undo)]);
        await sendAt(2 * NOTIFY_HOLD_MAX_SECONDS + 10);

        const told = (await server.sql<{ move: string }>(`select (data->>'from') || '>' || (data->>'to') as move from notifications where feedback_id = ? order by id`, [item])).map((row) => row.move);
        expect([[], ['new>planned', 'planned>new']], `round ${round}: the rows`).to.deep.include(told);
        const events = await server.sql<{ move: string }>(
          `select (data->'notification'->>'from') || '>' || (data->'notification'->>'to') as move from webhook_events
           where type = 'notification.created' and data->'notification'->'feedback'->>'id' = ? order by id`,
          [item],
        );
        expect(events.map((row) => row.move), `round ${round}: an event for each change told, none for one taken back`).to.deep.equal(told);
        const mailed = smtp.to(`${marker}@example.com`).flatMap(movesIn);
        expect(mailed, `round ${round}: mail for each change told, none for one taken back`).to.deep.equal(told.map((move) => move.split('>').map((s) => label[s]).join('>')));
        expect(await server.sql('select 1 from notification_holds where feedback_id = ?', [item]), `round ${round}: nothing left held`).to.deep.equal([]);
      }
    });

    it('when an item held by a bulk change moves again, then the held change goes out first and the subscribers are told of both, in order', async function () {
      this.timeout(60_000);
      const marker = `order-${Date.now()}`;
      const item = await submit(`${marker} item`);
      await subscribe(server, item, [{ externalId: `${marker}-ann`, email: `${marker}-ann@example.com` }]);
      const cookie = await signIn(server, secretKey);
      await bulkChange(server, cookie, [item], 'planned');
      expect((await request(server, 'PATCH', `/api/v1/feedback/${item}`, { apiKey: secretKey, body: { status: 'completed' } })).status).to.equal(200);
      await until(() => createdAbout(receiver.received, item).length === 2, 20_000, 'both changes told through the webhook');
      expect(createdAbout(receiver.received, item).map((e) => `${e.data.notification.from}>${e.data.notification.to}`)).to.deep.equal(['new>planned', 'planned>completed']);
      await sendAt(NOTIFY_HOLD_MAX_SECONDS + 5);
      expect(smtp.to(`${marker}-ann@example.com`).map(movesIn)).to.deep.equal([['New>Planned', 'Planned>Completed']]);
    });
  });

  describe(`held notifications with --notify-window 0 (${backend.name})`, () => {
    let smtp: TestSmtp;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const options: TestServerOptions = { voterSecret: SECRET, mailFrom: FROM, notifyWindowSeconds: 0, webhooksAllowPrivate: true };
    before(async () => {
      smtp = await startSmtp();
      receiver = await startReceiver();
      options.smtpUrl = smtp.url;
    });
    after(async () => {
      await smtp?.stop();
      await receiver?.close();
    });
    const server = withServer(backend, options);

    it("when the server sends at once, then the machine's own jobs release a bulk change within moments, and an undo after that is told as a change of its own", async function () {
      this.timeout(60_000);
      const secretKey = await server.newKey(undefined, 'secret');
      expect((await request(server, 'POST', '/api/v1/webhooks', { apiKey: secretKey, body: { url: receiver.url, events: ['notification.created'] } })).status).to.equal(201);
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Sent at once' } });
      const item = created.body.feedback.id as string;
      await subscribe(server, item, [{ externalId: 'ann', email: 'ann@example.com' }]);
      const cookie = await signIn(server, secretKey);
      const undo = await bulkChange(server, cookie, [item], 'planned');
      await until(() => createdAbout(receiver.received, item).length === 1 && smtp.to('ann@example.com').length === 1, 20_000, 'the change mailed and told through the webhook');
      expect(await undoChange(server, cookie, undo).then((params) => params.get('restored'))).to.equal('1');
      await until(() => createdAbout(receiver.received, item).length === 2 && smtp.to('ann@example.com').length === 2, 20_000, 'the undo mailed and told through the webhook');
      expect(smtp.to('ann@example.com').map(movesIn)).to.deep.equal([['New>Planned'], ['Planned>New']]);
    });
  });
}
