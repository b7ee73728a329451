import { expect } from 'chai';
import pg from 'pg';
import { backends, type FreshDatabase } from '../helpers/backends.js';
import { inProcess, startServe, type ServeProcess } from '../helpers/cli-process.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { until } from '../helpers/until.js';

const postgres = backends().find((backend) => backend.name === 'postgres');
const sharedRedisUrl = process.env.TEST_REDIS_URL;

/** Two `feedback serve --smtp-url` on one PostgreSQL and one Redis (docs/notifications.md): each notification leaves once. */
describe('notification mail across instances: two `feedback serve` on one PostgreSQL and one Redis', function () {
  let database: FreshDatabase;
  let instances: ServeProcess[] = [];
  let smtp: TestSmtp;
  let db: pg.Client;

  before(async function () {
    if (!postgres || !sharedRedisUrl) return this.skip();
    smtp = await startSmtp();
    database = await postgres.create();
    const common = ['--database-url', database.location.databaseUrl!, '--redis-url', sharedRedisUrl, '--smtp-url', smtp.url, '--mail-from', 'Acme <feedback@acme.example>', '--notify-window', '0'];
    const first = await startServe([...common, '--workers', '2']);
    instances.push(first);
    await until(() => /pk_/.test(first.stdout()), 30_000, 'the first key');
    instances.push(await startServe([...common, '--workers', '1', '--no-migrate']));
    db = new pg.Client({ connectionString: database.location.databaseUrl });
    await db.connect();
  });
  after(async () => {
    for (const instance of instances) if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((instance) => instance.exited));
    instances = [];
    await db?.end();
    await database?.drop();
    await smtp?.stop();
  });

  it('when items with 30 subscribers each move through both instances, then every subscriber gets each message exactly once', async () => {
    const made = await inProcess(['keys', 'create', '--secret', '--json', '--database-url', database.location.databaseUrl!]);
    expect(made.code, made.stderr).to.equal(0);
    const key = (JSON.parse(made.stdout) as { key: string }).key;
    const titles: string[] = [];
    for (const [i, instance] of instances.entries()) {
      const title = `Across instances ${i}`;
      titles.push(title);
      const created = await fetch(`${instance.url}/api/v1/feedback`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ title }) });
      const item = ((await created.json()) as { feedback: { id: string } }).feedback.id;
      await db.query(
        `with users as (
           insert into end_users (project_id, external_id, email) select f.project_id, 'multi-' || n, 'multi-' || n || '@example.com' from feedback f, generate_series(0, 29) n where f.id = $1
           on conflict (project_id, external_id) do update set email = excluded.email returning id, project_id
         ) insert into subscriptions (feedback_id, end_user_id, project_id, reasons) select $1, id, project_id, 8 from users`,
        [item],
      );
      const moved = await fetch(`${instances[(i + 1) % 2]!.url}/api/v1/feedback/${item}`, { method: 'PATCH', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'planned' }) });
      expect(moved.status).to.equal(200);
    }
    const pending = async () => Number((await db.query(`select count(*) from notifications where mail_state = 'pending' or claimed_until is not null`)).rows[0].count);
    await until(async () => (await pending()) === 0, 30_000, 'every notification to be sent');
    const sent = (await db.query(`select count(*) from notifications where mail_state = 'sent'`)).rows[0].count;
    expect(Number(sent)).to.equal(60);
    // A recipient told of both items within the window (0) may get them in one message or two: each change arrives once in all.
    for (let n = 0; n < 30; n += 1) {
      const mails = smtp.to(`multi-${n}@example.com`);
      const told = mails.flatMap((mail) => titles.filter((title) => mail.text?.includes(title)));
      expect(told.sort(), `multi-${n}`).to.deep.equal([...titles].sort());
    }
  });
});
