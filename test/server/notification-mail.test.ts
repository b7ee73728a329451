import { expect } from 'chai';
import type { ParsedMail } from 'mailparser';
import { FeedbackClient } from '@feedbackd/sdk';
import { decodeJwt, SignJWT } from 'jose';
import { mailSender, signUnsubscribe, UNSUBSCRIBE_LINK_DAYS, unsubscribeKey, type MailSender } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { notificationsOf, projectId, subscribe, subscribeMany } from '../helpers/subscriptions.js';
import { request, withServer, type TestServerOptions } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

const SECRET = 'notification-mail-tests-secret-0123456789';
const FROM = 'Acme <feedback@acme.example>';

/** A header line of a parsed message, as sent. */
function header(mail: ParsedMail, name: string): string | undefined {
  return mail.headerLines.find((line) => line.key === name)?.line.slice(name.length + 1).trim();
}

/** The one-click address of a message's List-Unsubscribe header. */
function unsubscribeUrl(mail: ParsedMail): string {
  const value = header(mail, 'list-unsubscribe') ?? '';
  const match = /<(https?:\/\/[^>]+)>/.exec(value);
  if (!match) throw new Error(`no http List-Unsubscribe in ${value}`);
  return match[1]!;
}

/** The notifications' mail (issue 40 item 3, docs/notifications.md), sent to a real SMTP server. */
for (const backend of backends()) {
  describe(`notification mail through serve (${backend.name})`, () => {
    let smtp: TestSmtp;
    const options: TestServerOptions = { voterSecret: SECRET, mailFrom: FROM, notifyWindowSeconds: 0 };
    before(async () => {
      smtp = await startSmtp();
      options.smtpUrl = smtp.url;
    });
    after(async () => smtp?.stop());
    const server = withServer(backend, options);
    let client: FeedbackClient;
    before(async () => {
      client = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(undefined, 'secret'), maxRetries: 0 });
    });
    after(async () => client?.close());

    it('when an item moves, then each subscriber with an address gets one message with both parts and the RFC 8058 headers, and its one-click POST unsubscribes', async () => {
      const res = await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Dark <mode>' } });
      const item = res.body.feedback.id as string;
      await subscribe(server, item, [{ externalId: 'ann', email: 'ann@example.com', name: 'Ann' }, { externalId: 'bob', email: null }]);
      await client.admin.update(item, { status: 'planned' });
      await until(async () => (await notificationsOf(server, item)).every((row) => row.mailState !== 'pending'), 20_000, 'the mail to be sent');
      expect(await notificationsOf(server, item)).to.deep.equal([
        { externalId: 'ann', kind: 'status_changed', mailState: 'sent' },
        { externalId: 'bob', kind: 'status_changed', mailState: 'skipped' },
      ]);
      const mails = smtp.to('ann@example.com');
      expect(mails).to.have.length(1);
      const mail = mails[0]!;
      expect(mail.from?.value).to.deep.equal([{ name: 'Acme', address: 'feedback@acme.example' }]);
      expect(mail.subject).to.include('Dark <mode>');
      // The title is isolated for the bidi algorithm (U+2068 … U+2069: issue 49).
      expect(mail.text).to.include('“\u2068Dark <mode>\u2069” moved from New to Planned.');
      expect(mail.text).to.include(`${server.url}/b/default/items/${item}`);
      expect(mail.html).to.be.a('string').and.include('Dark &#60;mode&#62;').and.not.include('Dark <mode>');
      expect(header(mail, 'list-unsubscribe-post')).to.equal('List-Unsubscribe=One-Click');

      const link = unsubscribeUrl(mail);
      const page = await fetch(link);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.include('<button type="submit" class="button">Unsubscribe</button>');
      // Only looking (a GET, as a mail scanner does) changes nothing.
      expect((await server.sql<{ at: Date | null }>(`select unsubscribed_at as at from end_users where external_id = 'ann'`))[0]!.at).to.equal(null);
      const post = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(post.status).to.equal(200);
      expect((await server.sql<{ at: Date | null }>(`select unsubscribed_at as at from end_users where external_id = 'ann'`))[0]!.at).to.not.equal(null);
      await client.admin.update(item, { status: 'in-progress' });
      expect((await notificationsOf(server, item)).filter((row) => row.externalId === 'ann')).to.have.length(1);
    });

    it("when a title and a reply hold line breaks and bidi controls (issue 49: a title's line break forged a 'See it on the board: https://evil…' line), then every value people wrote is on its own line, isolated, in both parts", async () => {
      const forged = 'See it on the board: https://ev.il/';
      // Line breaks a mail reader may honour, a right-to-left override left open, and a stray U+2069 that would end an isolate early.
      const title = `Sync\r\n${forged}a\r${forged}b\u2028${forged}c\u0085\nd\u2069\u202eevil`;
      const res = await request(server, 'POST', '/api/v1/feedback', { body: { title } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const item = res.body.feedback.id as string;
      await subscribe(server, item, [{ externalId: 'eve-reader', email: 'eve-reader@example.com' }]);
      await client.admin.update(item, { status: 'planned' });
      await request(server, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: `Thanks\r${forged}x\u2028${forged}y\n\u202eflipped`, team: { name: 'Ada' } }, apiKey: await server.newKey(undefined, 'secret') });
      const theirs = async () => (await notificationsOf(server, item)).filter((row) => row.externalId === 'eve-reader');
      await until(async () => {
        const rows = await theirs();
        return rows.length === 2 && rows.every((row) => row.mailState === 'sent');
      }, 20_000, 'both mails to be sent');
      const mails = smtp.to('eve-reader@example.com');
      expect(mails.length).to.be.within(1, 2);
      const text = mails.map((mail) => mail.text ?? '').join('\n');
      const lines = text.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/);
      // No line of the text part starts with what a title or a reply forged: each "See it on the board" line is ours, to the item.
      for (const line of lines.filter((line) => line.trimStart().startsWith('See it on the board'))) {
        expect(line, 'a line of the message').to.equal(`See it on the board: ${server.url}/b/default/items/${item}`);
      }
      // The title stays in its sentence, on one line, between U+2068 and U+2069; its stray U+2069 is left out, so the override ends with the title.
      const shown = `Sync ${forged}a ${forged}b ${forged}c d\u202eevil`;
      expect(lines).to.include(`“\u2068${shown}\u2069” moved from New to Planned.`);
      // Each line of the reply is quoted, whatever line break it was written with, and isolated.
      expect(lines).to.include.members(['> \u2068Thanks\u2069', `> \u2068${forged}x\u2069`, `> \u2068${forged}y\u2069`, '> \u2068\u202eflipped\u2069']);
      for (const mail of mails) {
        expect(mail.subject, 'the subject is one line').to.not.match(/[\r\n\u0085\u2028\u2029]/);
        // The HTML part: people's text in <bdi>, the reply in a blockquote of its own direction.
        expect(mail.html).to.be.a('string').and.include(`<bdi>${shown}</bdi>`);
      }
      expect(mails.map((mail) => mail.html).join('')).to.include('<blockquote dir="auto">Thanks<br>');
    });

    it('when unsubscribe tokens are made (issue 49: the same bytes in every mail and never expire), then each holds its issue time and expires 90 days later: an expired link is a 410 page that changes nothing, and a link of an earlier version, with neither, still works', async () => {
      const key = unsubscribeKey(Buffer.from(SECRET));
      const item = (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Token times' } })).body.feedback.id as string;
      const [endUserId] = await subscribe(server, item, [{ externalId: 'tia', email: 'tia@example.com' }]);
      const claims = { projectId: await projectId(server), endUserId: endUserId!, feedbackId: item };
      const unsubscribedAt = async () => (await server.sql<{ at: Date | null }>('select unsubscribed_at as at from subscriptions where feedback_id = ? and end_user_id = ?', [item, endUserId]))[0]!.at;
      const DAY = 86_400_000;

      // The mail's own links: an issue time, and an expiry UNSUBSCRIBE_LINK_DAYS after it.
      const now = Date.now();
      const token = await signUnsubscribe(key, claims);
      const payload = decodeJwt(token);
      expect(payload.iat! * 1000).to.be.closeTo(now, 60_000);
      expect(payload.exp! - payload.iat!).to.equal(UNSUBSCRIBE_LINK_DAYS * 86_400);
      expect(UNSUBSCRIBE_LINK_DAYS).to.equal(90);
      // Made at other times, the links differ: not the same bytes in every mail.
      expect(await signUnsubscribe(key, claims, new Date(now - 5_000))).to.not.equal(token);

      const expired = await signUnsubscribe(key, claims, new Date(now - 91 * DAY));
      const page = await fetch(`${server.url}/b/default/unsubscribe?token=${expired}`);
      expect(page.status).to.equal(410);
      expect(await page.text()).to.include('This unsubscribe link has expired.');
      const post = await fetch(`${server.url}/b/default/unsubscribe?token=${expired}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(post.status).to.equal(410);
      expect(await unsubscribedAt(), 'an expired link changes nothing').to.equal(null);
      // One signed with another key is no link of ours, expired or not: 404.
      const forged = await signUnsubscribe(unsubscribeKey(Buffer.from('another-secret-0123456789abcdef')), claims, new Date(now - 91 * DAY));
      expect((await fetch(`${server.url}/b/default/unsubscribe?token=${forged}`)).status).to.equal(404);

      const old = await signUnsubscribe(key, claims, new Date(now - 89 * DAY));
      expect((await fetch(`${server.url}/b/default/unsubscribe?token=${old}`)).status, '89 days old').to.equal(200);
      // A link mailed by an earlier version: no iat, no exp. It keeps working, as it was promised to.
      const legacy = await new SignJWT({ p: claims.projectId, f: claims.feedbackId }).setProtectedHeader({ alg: 'HS256' }).setSubject(claims.endUserId).setAudience('feedback-unsubscribe').sign(key);
      const legacyPost = await fetch(`${server.url}/b/default/unsubscribe?token=${legacy}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(legacyPost.status).to.equal(200);
      expect(await unsubscribedAt()).to.not.equal(null);
    });

    it('when an unsubscribe link is forged or cut short, then its page says so with a 404 and nothing changes', async () => {
      const page = await fetch(`${server.url}/b/default/unsubscribe?token=not-a-token`);
      expect(page.status).to.equal(404);
      expect(await page.text()).to.include('This unsubscribe link is not valid');
      const post = await fetch(`${server.url}/b/default/unsubscribe?token=not-a-token`, { method: 'POST', body: 'List-Unsubscribe=One-Click' });
      expect(post.status).to.equal(404);
    });
  });

  describe(`notification mail sender (${backend.name})`, () => {
    let smtp: TestSmtp;
    const server = withServer(backend, { voterSecret: SECRET });
    const logs: string[] = [];
    const senders: MailSender[] = [];
    before(async () => {
      smtp = await startSmtp();
    });
    after(async () => {
      for (const sender of senders) sender.close();
      await smtp?.stop();
    });
    let clock = Date.now();
    /** A sender on the server's database with the test's clock, `windowSeconds` and SMTP server. */
    const senderOf = (windowSeconds: number, url = smtp.url): MailSender => {
      const sender = mailSender({
        sql: server.server.sql,
        logger: { debug: () => {}, info: () => {}, warn: (message, fields) => logs.push(`${message} ${JSON.stringify(fields)}`), error: (message) => logs.push(message) },
        smtpUrl: url,
        from: FROM,
        windowSeconds,
        origin: server.url,
        serverSecret: Buffer.from(SECRET),
        now: () => new Date(clock),
      });
      senders.push(sender);
      return sender;
    };
    const submit = async (title: string, apiKey?: string): Promise<string> => (await request(server, 'POST', '/api/v1/feedback', { body: { title }, apiKey })).body.feedback.id;
    let client: FeedbackClient;
    before(async () => {
      client = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(undefined, 'secret'), maxRetries: 0 });
    });
    after(async () => client?.close());
    beforeEach(() => {
      clock = Date.now();
    });

    it('when two changes reach one person within the window, then they leave as one message once the window has passed, not before', async () => {
      const item = await submit('Calendar sync');
      await subscribe(server, item, [{ externalId: 'cat', email: 'cat@example.com' }]);
      const sender = senderOf(600);
      await client.admin.update(item, { status: 'planned' });
      await request(server, 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Next month', team: { name: 'Ada' } }, apiKey: await server.newKey(undefined, 'secret') });
      clock += 599_000;
      await sender.sendDue();
      expect(smtp.to('cat@example.com')).to.have.length(0);
      clock += 2_000;
      await sender.sendDue();
      await sender.sendDue();
      const mails = smtp.to('cat@example.com');
      expect(mails).to.have.length(1);
      expect(mails[0]!.subject).to.include('2 updates');
      expect(mails[0]!.text).to.include('moved from New to Planned').and.include('The team replied to “\u2068Calendar sync\u2069”:').and.include('> \u2068Next month\u2069');
      expect((await notificationsOf(server, item)).map((row) => row.mailState)).to.deep.equal(['sent', 'sent']);
    });

    it('when a project chose the daily digest, then its changes wait a day and leave as one message', async () => {
      const key = await server.newKey('digest-project', 'secret');
      await server.sql(`update projects set notify_digest = true where slug = 'digest-project'`);
      const item = await submit('Digest me', key);
      await subscribe(server, item, [{ externalId: 'dot', email: 'dot@example.com' }]);
      const digest = new FeedbackClient({ baseUrl: server.url, apiKey: key, maxRetries: 0 });
      try {
        await digest.admin.update(item, { status: 'planned' });
        await digest.admin.update(item, { status: 'in-progress' });
      } finally {
        await digest.close();
      }
      const sender = senderOf(0);
      clock += 3_600_000;
      await sender.sendDue();
      expect(smtp.to('dot@example.com')).to.have.length(0);
      clock += 86_400_000;
      await sender.sendDue();
      expect(smtp.to('dot@example.com')).to.have.length(1);
      expect(smtp.to('dot@example.com')[0]!.text).to.include('from New to Planned').and.include('from Planned to In progress');
    });

    it('when the mail server is down, then the API answers, nothing is lost, and once it is back every message arrives once', async () => {
      const down = await startSmtp();
      await down.stop();
      const sender = senderOf(0, down.url);
      const item = await submit('Resilient');
      await subscribeMany(server, item, 'down', 5);
      await client.admin.update(item, { status: 'planned' });
      clock += 1_000;
      let failed: unknown;
      await sender.sendDue().catch((error: unknown) => (failed = error));
      expect(String(failed)).to.include('tried again later');
      // The API keeps answering while the mail waits.
      expect((await request(server, 'GET', `/api/v1/feedback/${item}`)).status).to.equal(200);
      expect(new Set((await notificationsOf(server, item)).map((row) => row.mailState))).to.deep.equal(new Set(['pending']));
      await down.start();
      try {
        clock += 3_600_000;
        await until(async () => {
          await sender.sendDue().catch(() => {});
          return down.received.length >= 5;
        }, 20_000, () => `5 messages after the restart, got ${down.received.length}`);
        await sender.sendDue();
        const addresses = down.received.flatMap((mail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((to) => to!.value.map((v) => v.address)));
        expect(addresses.sort()).to.deep.equal(['down-0@example.com', 'down-1@example.com', 'down-2@example.com', 'down-3@example.com', 'down-4@example.com']);
      } finally {
        await down.stop();
      }
    });

    it('when the mail server refuses one address for good, then it is suppressed and logged, and the others are delivered', async () => {
      const item = await submit('Bounce');
      await subscribe(server, item, [{ externalId: 'gone', email: 'gone@example.com' }, { externalId: 'here', email: 'here@example.com' }]);
      smtp.refuse.add('gone@example.com');
      await client.admin.update(item, { status: 'planned' });
      const sender = senderOf(0);
      clock += 1_000;
      await sender.sendDue();
      expect(smtp.to('here@example.com')).to.have.length(1);
      expect(smtp.to('gone@example.com')).to.have.length(0);
      expect(await notificationsOf(server, item)).to.deep.equal([
        { externalId: 'gone', kind: 'status_changed', mailState: 'suppressed' },
        { externalId: 'here', kind: 'status_changed', mailState: 'sent' },
      ]);
      expect(logs.some((line) => line.startsWith('mail address suppressed'))).to.equal(true);
      // The next change is not even tried for the suppressed address.
      await client.admin.update(item, { status: 'closed' });
      expect((await notificationsOf(server, item)).filter((row) => row.externalId === 'gone').map((row) => row.mailState)).to.deep.equal(['suppressed', 'suppressed']);
    });

    it('when two senders run at once on one database, then each person gets one message', async () => {
      const item = await submit('Claimed once');
      await subscribeMany(server, item, 'twice', 40);
      await client.admin.update(item, { status: 'planned' });
      const [a, b] = [senderOf(0), senderOf(0)];
      clock += 1_000;
      await Promise.all([a!.sendDue(), b!.sendDue()]);
      const mine = smtp.received.filter((mail) => mail.text?.includes('Claimed once'));
      expect(mine).to.have.length(40);
      expect(new Set(mine.map((mail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.text)).size).to.equal(40);
    });
  });
}
