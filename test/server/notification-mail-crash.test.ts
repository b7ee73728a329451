import { expect } from 'chai';
import type { ParsedMail } from 'mailparser';
import pg from 'pg';
import { LEASE_SECONDS, RECIPIENTS_PER_CLAIM, SMTP_CONNECTIONS } from '@feedbackd/server/testing';
import { backends, type FreshDatabase } from '../helpers/backends.js';
import { endGroup, groupAlive } from '../helpers/child-processes.js';
import { inProcess, startServe, type ServeProcess } from '../helpers/cli-process.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { until } from '../helpers/until.js';

const postgres = backends().find((backend) => backend.name === 'postgres');
const SUBSCRIBERS = 60;
const TITLE = 'Dark mode, told through a crash';
/** Messages the mail server takes, one by one, before the kill: the first claim and part of the second. */
const TAKEN_BEFORE_KILL = RECIPIENTS_PER_CLAIM + 5;

/** The addresses a message went to. */
function addresses(mail: ParsedMail): string[] {
  return (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((to) => to?.value.map((value) => value.address ?? '') ?? []);
}

/**
 * Issue 40: a `kill -9` of the server mid-send (docs/notifications.md, "If the server dies
 * mid-send"). PostgreSQL only: the embedded database is one process's, so a second server on it
 * after a crash is the PostgreSQL case. The mail server holds each message until the test takes it,
 * so the kill lands while a claim is being sent, right after the mail server took some messages
 * whose rows the killed process never marked sent.
 */
describe('notification mail when `feedback serve` is killed mid-send (PostgreSQL)', function () {
  this.timeout(240_000);
  let database: FreshDatabase;
  let smtp: TestSmtp;
  let db: pg.Client | undefined;
  const servers: ServeProcess[] = [];

  before(async function () {
    if (!postgres) return this.skip();
    smtp = await startSmtp();
    smtp.hold = true;
    database = await postgres.create();
  });
  after(async () => {
    if (smtp) {
      smtp.hold = false;
      smtp.release();
    }
    // SIGTERM, then SIGKILL to each whole group: the killed one is already gone.
    await Promise.all(servers.map((server) => endGroup(server.child)));
    await db?.end();
    await database?.drop();
    await smtp?.stop();
  });

  it('when the server is killed while a claim is being sent, then a new one sends every message, and only those the mail server took from the dead one arrive twice', async () => {
    const url = database.location.databaseUrl!;
    const common = ['--database-url', url, '--smtp-url', smtp.url, '--mail-from', 'Acme <feedback@acme.example>', '--notify-window', '0', '--workers', '1'];
    const first = await startServe(common);
    servers.push(first);
    await until(() => /pk_/.test(first.stdout()), 60_000, 'the first key');
    db = new pg.Client({ connectionString: url });
    await db.connect();
    const made = await inProcess(['keys', 'create', '--secret', '--json', '--database-url', url]);
    expect(made.code, made.stderr).to.equal(0);
    const key = (JSON.parse(made.stdout) as { key: string }).key;
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const created = await fetch(`${first.url}/api/v1/feedback`, { method: 'POST', headers, body: JSON.stringify({ title: TITLE }) });
    expect(created.status).to.equal(201);
    const item = ((await created.json()) as { feedback: { id: string } }).feedback.id;
    await db.query(
      `with users as (
         insert into end_users (project_id, external_id, email) select f.project_id, 'crash-' || n, 'crash-' || n || '@example.com' from feedback f, generate_series(0, $2::int - 1) n where f.id = $1
         returning id, project_id
       ) insert into subscriptions (feedback_id, end_user_id, project_id, reasons) select $1, id, project_id, 8 from users`,
      [item, SUBSCRIBERS],
    );
    const moved = await fetch(`${first.url}/api/v1/feedback/${item}`, { method: 'PATCH', headers, body: JSON.stringify({ status: 'planned' }) });
    expect(moved.status).to.equal(200);

    // The mail server takes messages one at a time: the first claim, then part of the second. The
    // sender never has more than its connections' worth waiting for an answer.
    while (smtp.received.length < TAKEN_BEFORE_KILL) {
      await until(() => smtp.held > 0, 60_000, () => `a message to take (${smtp.received.length} taken)`);
      expect(smtp.held).to.be.at.most(SMTP_CONNECTIONS);
      smtp.release(1);
    }
    await until(() => smtp.held === SMTP_CONNECTIONS, 60_000, () => `a message on each connection waiting for its answer (${smtp.held})`);
    // The server dies, and in the same turn the mail server takes the messages it had read in full:
    // the 250s go to a process that can no longer run, so it never marks them sent. This is SMTP's
    // own window (RFC 1047): a mail server that has the whole message may keep it although its
    // sender never hears so.
    process.kill(-first.child.pid!, 'SIGKILL');
    const takenAtKill = smtp.release();
    expect(takenAtKill).to.equal(SMTP_CONNECTIONS);
    const takenFromKilled = new Set(smtp.received.flatMap(addresses));
    await until(() => !groupAlive(first.child.pid!), 30_000, 'the killed server and its workers to be gone');
    // What its connections sent after the last answer is dropped with them, never taken.
    await until(() => smtp.held === 0, 30_000, "the killed server's connections to close");
    expect(smtp.received.length, 'nothing taken after the kill').to.equal(takenFromKilled.size);
    expect(takenFromKilled.size).to.equal(TAKEN_BEFORE_KILL + takenAtKill);

    // In flight: rows the killed process claimed and never marked sent. One claim at a time.
    const rows = async () =>
      (
        await db!.query<{ email: string; mail_state: string; claimed: boolean; lease_left: number | null; attempts: number }>(
          `select u.email, n.mail_state, n.claimed_until is not null as claimed, extract(epoch from n.claimed_until - now())::float8 as lease_left, n.attempts
           from notifications n join end_users u on u.id = n.end_user_id where n.feedback_id = $1`,
          [item],
        )
      ).rows;
    const atKill = await rows();
    expect(atKill).to.have.length(SUBSCRIBERS);
    const inFlight = atKill.filter((row) => row.mail_state === 'pending' && row.claimed);
    expect(inFlight.length, 'the kill landed mid-claim').to.be.within(1, RECIPIENTS_PER_CLAIM);
    // A row is marked sent only after the mail server took its message.
    for (const row of atKill.filter((row) => row.mail_state === 'sent')) expect(takenFromKilled.has(row.email), row.email).to.equal(true);
    // The dead process's claims lapse by themselves: none holds longer than the lease.
    for (const row of inFlight) expect(row.lease_left!, row.email).to.be.within(0, LEASE_SECONDS);
    // The restarted server would send them once the lease (five minutes) has run out; the test ends
    // the lease instead of waiting for it, as the passing of time would.
    await db.query(`update notifications set claimed_until = now() - interval '1 second' where feedback_id = $1 and mail_state = 'pending' and claimed_until is not null`, [item]);

    smtp.hold = false;
    servers.push(await startServe([...common, '--no-migrate']));
    await until(
      async () => (await rows()).every((row) => row.mail_state === 'sent' && !row.claimed),
      120_000,
      () => `every notification to be sent (${smtp.received.length} messages so far)`,
    );

    const count = new Map<string, number>();
    for (const mail of smtp.received) {
      expect(mail.text, 'a message of the change').to.include(TITLE);
      for (const address of addresses(mail)) count.set(address, (count.get(address) ?? 0) + 1);
    }
    // None lost: every subscriber has the message.
    for (let n = 0; n < SUBSCRIBERS; n += 1) expect(count.get(`crash-${n}@example.com`) ?? 0, `crash-${n}`).to.be.at.least(1);
    expect(count.size).to.equal(SUBSCRIBERS);
    // Twice only: the messages in flight at the kill that the mail server had taken (sent again,
    // since their rows were not marked), at most one claim's recipients.
    const twice = [...count].filter(([, times]) => times > 1).map(([address]) => address).sort();
    const expected = inFlight.map((row) => row.email).filter((email) => takenFromKilled.has(email)).sort();
    expect(twice).to.deep.equal(expected);
    expect(Math.max(...count.values())).to.equal(2);
    expect(twice.length).to.be.within(takenAtKill, RECIPIENTS_PER_CLAIM);
    expect(smtp.received).to.have.length(SUBSCRIBERS + twice.length);
    // Claimed twice only those in flight; every other row was claimed once and sent once.
    const inFlightEmails = new Set(inFlight.map((row) => row.email));
    for (const row of await rows()) expect(row.attempts, row.email).to.equal(inFlightEmails.has(row.email) ? 2 : 1);
  });
});
