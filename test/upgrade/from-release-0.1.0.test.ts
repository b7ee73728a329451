import { expect } from 'chai';
import { isDeepStrictEqual } from 'node:util';
import { backends, type FreshDatabase } from '../helpers/backends.js';
import { runFeedback as feedback, startServe, type ServeProcess } from '../helpers/cli-process.js';
import { request } from '../helpers/test-server.js';
import { readReleaseFixture } from './release-fixture.js';
import { HELPER_URL, pglitePackage, SERVER_URL } from '../helpers/pglite-package.js';
import { dumpScript, restoreIntoDataDir, restoreIntoPostgres } from './restore-dump.js';

// A database made and used by release 0.1.0 (test/fixtures/release-0.1.0, made with that
// release's own CLI and server) must open and serve under the current code: the migrations it
// recorded are recognised (none pending, none run again), and every row reads back as 0.1.0 read
// it. The steps of one backend share one restored database and run in order: status before up,
// reads before writes.

/**
 * The migrations of release 0.1.0, exactly as its MikroORM 6 wrote them into
 * mikro_orm_migrations.name (the bare names of its migrations/index.ts, with no .js or .ts
 * ending), each with the name it has since 0.2.0 numbered them. A later version must take these
 * rows as applied, under their new names, keeping their times.
 */
const RELEASE_MIGRATIONS: readonly (readonly [recorded: string, current: string])[] = [
  ['Migration20261121000000_pg_trgm', 'Migration0001_pg_trgm'],
  ['Migration20261121000100_initial_schema', 'Migration0002_initial_schema'],
  ['Migration20261121000200_idempotency_keys', 'Migration0003_idempotency_keys'],
  ['Migration20261122000300_hot_path', 'Migration0004_hot_path'],
  ['Migration20261123000400_admin_api', 'Migration0005_admin_api'],
  ['Migration20261123000500_search_text', 'Migration0006_search_text'],
  ['Migration20261123000600_time_ordered_ids', 'Migration0007_time_ordered_ids'],
  ['Migration20261123000700_vote_batches', 'Migration0008_vote_batches'],
  ['Migration20261125000800_exactly_once', 'Migration0009_exactly_once'],
];
const RELEASE_NAMES = RELEASE_MIGRATIONS.map(([, current]) => current);
/** The migrations added since 0.1.0, in order: what an upgrade applies. */
const SINCE_RELEASE = [
  'Migration0010_webhooks',
  'Migration0011_webhook_listeners',
  'Migration0012_outbox_fan_out',
  'Migration0013_board',
  'Migration0014_board_identity',
  'Migration0015_team_sessions',
  'Migration0016_voter_secret',
  'Migration0017_board_brand',
  'Migration0018_board_locale',
  'Migration0019_conversation',
  'Migration0020_changelog',
  'Migration0021_subscriptions',
  'Migration0022_moderation',
  'Migration0023_notifications',
  'Migration0024_widget',
  'Migration0025_subscribe_on_vote',
  'Migration0026_toggle_batch_statement',
  'Migration0027_notification_holds',
  'Migration0028_block_expiry',
  'Migration0029_held_edits',
];

/** What `migrate status` read from 0.1.0's rows: its names and times, each name as this version calls it. */
function releaseExecuted(): { name: string; executedAt: string }[] {
  const current = new Map(RELEASE_MIGRATIONS);
  return fixture.migrateStatus.executed.map((row) => ({ ...row, name: current.get(row.name) ?? `not a migration of 0.1.0: ${row.name}` }));
}

const fixture = readReleaseFixture();

/*
 * The conversation (issue 39, migration 0019) added fields after the spec's: each comment's
 * `parentId`, `editedAt` and `isPinned`, and an end-user author's `id` (their externalId). A
 * release 0.1.0 database has no reply, edit or pin, so today's answer must be 0.1.0's with exactly
 * these fields added at these values, and nothing else changed. Likewise subscriptions' field.
 */
function withoutConversationFields(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(withoutConversationFields);
  if (typeof body !== 'object' || body === null) return body;
  const object = { ...(body as Record<string, unknown>) };
  // Subscriptions (issue 40, migrations 0021 and 0025) add `userIsSubscribed` to a detail read
  // with an endUserId: the backfill subscribed 0.1.0's voters, so each of them reads true.
  if ('userIsSubscribed' in object) {
    expect(object.userIsSubscribed, 'userIsSubscribed').to.be.a('boolean');
    if (object.userHasVoted === true) expect(object.userIsSubscribed, 'a 0.1.0 voter is subscribed by the backfill').to.equal(true);
    delete object.userIsSubscribed;
  }
  if (Array.isArray(object.comments)) {
    object.comments = object.comments.map((comment: Record<string, unknown>) => {
      const { parentId, editedAt, isPinned, author, ...rest } = comment;
      expect({ parentId, editedAt, isPinned }, 'a 0.1.0 comment: top-level, never edited, unpinned').to.deep.equal({ parentId: null, editedAt: null, isPinned: false });
      if (author === null || typeof author !== 'object' || !('id' in author)) return { ...rest, author };
      const { id, ...spec } = author as Record<string, unknown>;
      expect(id, "an end-user author's id is their externalId").to.be.a('string');
      return { ...rest, author: spec };
    });
  }
  for (const [key, value] of Object.entries(object)) if (key !== 'comments') object[key] = withoutConversationFields(value);
  return object;
}

/**
 * 0.1.0's dump (format version 1) as today's export writes it: version 6, whose comments carry the
 * conversation's fields at their defaults and whose users never left the project and were never
 * refused mail, with no changelog, held post or block, and the subscriptions
 * Migration20261202001100 backfilled from its rows (each item's submitter 1, voters 2, end-user
 * commenters 4, OR-ed per person), in (item, user) order. Their `createdAt` is the migration's time, which no fixture knows: SUBSCRIBED_AT stands for it.
 */
function asVersion5(dump: string): string[] {
  const raw = dump.split('\n').filter((line) => line !== '');
  const records = raw.map((line) => JSON.parse(line) as { type: string; version?: number; counts?: Record<string, number>; data?: Record<string, any> });
  const projectOf = new Map(records.filter((r) => r.type === 'item').map((r) => [r.data!.id as string, r.data!.projectId as string]));
  const reasons = new Map<string, number>();
  const take = (item: string, user: string | null, bit: number) => {
    if (user === null) return;
    const key = `${item} ${user}`;
    reasons.set(key, (reasons.get(key) ?? 0) | bit);
  };
  for (const r of records) {
    if (r.type === 'item') take(r.data!.id, r.data!.endUserId, 1);
    if (r.type === 'vote') take(r.data!.itemId, r.data!.endUserId, 2);
    if (r.type === 'comment' && !r.data!.isTeam) take(r.data!.itemId, r.data!.authorEndUserId, 4);
  }
  const subscriptions = [...reasons.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, bits]) => {
      const [itemId, endUserId] = key.split(' ') as [string, string];
      return JSON.stringify({ type: 'subscription', data: { itemId, endUserId, projectId: projectOf.get(itemId), reasons: bits, unsubscribedAt: null, createdAt: SUBSCRIBED_AT } });
    });
  const lines = records.map((record, i) => {
    if (record.type === 'header') {
      const { statusChange, ...counts } = record.counts!;
      return JSON.stringify({ ...record, version: 6, counts: { ...counts, commentRevision: 0, statusChange, changelogEntry: 0, changelogLink: 0, subscription: subscriptions.length, heldPost: 0, postingBlock: 0 } });
    }
    if (record.type === 'user') return JSON.stringify({ ...record, data: { ...record.data, unsubscribedAt: null, emailSuppressedAt: null } });
    if (record.type === 'comment') return JSON.stringify({ ...record, data: { ...record.data, parentId: null, isInternal: false, isPinned: false, editedAt: null } });
    return raw[i]!;
  });
  return [...lines, ...subscriptions, ''];
}

/** Stands for a backfilled subscription's `createdAt` (asVersion5). */
const SUBSCRIBED_AT = 'the time of the migration';

/** An exported subscription line with its `createdAt` (checked to be a time) replaced by SUBSCRIBED_AT. */
function withMigrationTime(line: string): string {
  if (!line.startsWith('{"type":"subscription"')) return line;
  const record = JSON.parse(line) as { data: { createdAt: string } };
  expect(Date.parse(record.data.createdAt), `a subscription's createdAt: ${record.data.createdAt}`).to.be.a('number').and.not.NaN;
  return JSON.stringify({ ...record, data: { ...record.data, createdAt: SUBSCRIBED_AT } });
}
const script = dumpScript(fixture.dumpPath);

/** The flags that name a database of this backend. */
const flagsOf = (database: FreshDatabase) => (database.location.databaseUrl ? ['--database-url', database.location.databaseUrl] : ['--data-dir', database.location.dataDir]);

/** An end user as 0.1.0 exported it. */
function exportedUser(externalId: string): { id: string } {
  for (const line of fixture.exported.split('\n')) {
    if (!line.startsWith('{"type":"user"')) continue;
    const record = JSON.parse(line) as { data: { id: string; externalId: string } };
    if (record.data.externalId === externalId) return record.data;
  }
  throw new Error(`the fixture's export has no end user ${externalId}`);
}

interface MigrationStatusJson {
  executed: { name: string; executedAt: string }[];
  pending: string[];
}

for (const backend of backends()) {
  describe(`upgrade: a database of release 0.1.0 (${backend.name})`, function () {
    // Each CLI run on the embedded database loads PGlite (a few seconds); restoring takes about as long.
    this.timeout(120_000);
    let database: FreshDatabase;
    before(async () => {
      database = await backend.create();
      if (database.location.databaseUrl) await restoreIntoPostgres(database.location.databaseUrl, script);
      else await restoreIntoDataDir(database.location.dataDir, script);
    });
    after(() => database?.drop());

    if (backend.name === 'embedded') {
      it('when the data directory is made for this test, then it is made by the PGlite release 0.1.0 shipped, the one the server loads', () => {
        // The directory is rebuilt from the dump rather than kept as files, so only the same
        // PGlite makes the files 0.1.0 left. If the project moves to another PGlite, this test no
        // longer covers the on-disk format: the directory must then be made with the old PGlite.
        expect(pglitePackage(HELPER_URL).dir, 'the test and the server load one PGlite').to.equal(pglitePackage(SERVER_URL).dir);
        expect(pglitePackage(SERVER_URL).version, 'the PGlite of release 0.1.0').to.equal(fixture.pglite);
      });
    }

    it('when `feedback migrate status --json` reads it, then the nine migrations of 0.1.0 are applied, under their numbered names at the times 0.1.0 recorded, and those added since are pending', async () => {
      expect(fixture.migrateStatus.executed.map((migration) => migration.name), 'the names 0.1.0 recorded').to.deep.equal(RELEASE_MIGRATIONS.map(([recorded]) => recorded));
      const run = await feedback(['migrate', 'status', '--json', ...flagsOf(database)]);
      expect(run.code, run.stderr).to.equal(0);
      const status = JSON.parse(run.stdout) as MigrationStatusJson;
      expect(status.executed.map((migration) => migration.name)).to.deep.equal(RELEASE_NAMES);
      expect(status.executed, 'the times 0.1.0 recorded').to.deep.equal(releaseExecuted());
      expect(status.pending).to.deep.equal(SINCE_RELEASE);
    });

    it('when `feedback migrate up` runs on it, then it applies exactly the migrations added since 0.1.0, and 0.1.0\'s stay as they were', async () => {
      const up = await feedback(['migrate', 'up', '--json', ...flagsOf(database)]);
      expect(up.code, up.stderr).to.equal(0);
      expect(JSON.parse(up.stdout)).to.deep.equal({ applied: SINCE_RELEASE });
      const status = await feedback(['migrate', 'status', '--json', ...flagsOf(database)]);
      expect(status.code, status.stderr).to.equal(0);
      const after = JSON.parse(status.stdout) as MigrationStatusJson;
      expect(after.pending).to.deep.equal([]);
      expect(after.executed.slice(0, RELEASE_NAMES.length)).to.deep.equal(releaseExecuted());
      expect(after.executed.slice(RELEASE_NAMES.length).map((migration) => migration.name)).to.deep.equal(SINCE_RELEASE);
    });

    it('when `feedback keys list` reads it, then the keys are listed as 0.1.0 listed them (the revoked one too)', async () => {
      const run = await feedback(['keys', 'list', '--json', ...flagsOf(database)]);
      expect(run.code, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.equal(fixture.keysList);
    });

    it('when `feedback export` reads it, then every project, user, item, vote, comment and status change comes out as the bytes 0.1.0 wrote', async () => {
      const run = await feedback(['export', ...flagsOf(database)], { SOURCE_DATE_EPOCH: fixture.sourceDateEpoch });
      expect(run.code, run.stderr).to.equal(0);
      const actual = run.stdout.split('\n').map(withMigrationTime);
      // The same rows, in the format of today (version 6; docs/transfer.md, "Versions").
      const expected = asVersion5(fixture.exported);
      const first = expected.findIndex((line, i) => line !== actual[i]);
      expect(first === -1 ? undefined : actual[first], `line ${first + 1} of the export`).to.equal(first === -1 ? undefined : expected[first]);
      expect(actual.length, 'lines of the export').to.equal(expected.length);
    });

    describe('`feedback serve` on it', () => {
      let serve: ServeProcess | undefined;
      const as = (key: keyof typeof fixture.keys) => ({ url: serve!.url, apiKey: fixture.keys[key] });
      before(async () => {
        serve = await startServe(['--workers', '1', '--rate-limit', 'off', ...flagsOf(database)]);
      });
      after(async () => {
        if (serve?.child.exitCode === null) {
          serve.child.kill('SIGTERM');
          await serve.exited;
        }
      });

      it('when every read 0.1.0 was asked is asked again, then each gets the same status and the same body', async () => {
        expect(fixture.answers.length, 'reads in the fixture').to.be.above(40);
        const differing: { name: string; path: string; expected: unknown; actual: unknown }[] = [];
        for (const answer of fixture.answers) {
          const response = await request(as(answer.key), 'GET', answer.path);
          const expected = { status: answer.status, body: answer.body };
          const actual = { status: response.status, body: withoutConversationFields(response.body) };
          if (!isDeepStrictEqual(actual, expected)) differing.push({ name: answer.name, path: answer.path, expected, actual });
        }
        // The message names every read that changed, so one run shows them all; the diff is the first one's.
        const names = differing.map((read) => `${read.name}: GET ${read.path}`).join('\n  ');
        if (differing[0]) expect(differing[0].actual, `${differing.length} read(s) answered differently:\n  ${names}\nthe first`).to.deep.equal(differing[0].expected);
        expect(differing).to.have.length(0);
      });

      it('when an end user votes twice, and the anonymous voter of 0.1.0 votes twice, then each vote toggles from the count 0.1.0 left', async () => {
        const item = fixture.items.csv!;
        const captured = fixture.answer('vote check, anonymous voter').body as { voted: boolean; voteCount: number };
        expect(captured, 'what 0.1.0 answered this address').to.deep.equal({ voted: true, voteCount: 5 });
        const path = `/api/v1/feedback/${item}/vote`;
        const user = { body: { endUser: { externalId: 'upgrade-voter' } } };
        expect((await request(as('public'), 'POST', path, user)).body).to.deep.equal({ voted: true, voteCount: 6 });
        expect((await request(as('public'), 'POST', path, user)).body).to.deep.equal({ voted: false, voteCount: 5 });
        // No end user: the voter is this address, hashed with the project's salt from 0.1.0, so
        // the first toggle takes back the anonymous vote cast under 0.1.0.
        expect((await request(as('public'), 'POST', path)).body).to.deep.equal({ voted: false, voteCount: 4 });
        expect((await request(as('public'), 'POST', path)).body).to.deep.equal({ voted: true, voteCount: 5 });
      });

      it('when an end user of 0.1.0 is identified and submits with an Idempotency-Key, then the user keeps its fields, the item is 201 and listed, and a retry is the same answer', async () => {
        const ada = exportedUser('fixture-ada');
        const identified = await request(as('public'), 'POST', '/api/v1/identify', { body: { externalId: 'fixture-ada' } });
        expect(identified.status, JSON.stringify(identified.body)).to.equal(200);
        expect(identified.body.user, 'the row 0.1.0 made, its fields kept').to.include({ id: ada.id, email: 'ada@example.com', name: 'Ada Lovelace', avatarUrl: 'https://example.com/ada.png' });

        const submit = { body: { title: 'Submitted after the upgrade', type: 'idea', endUser: { externalId: 'fixture-ada' } }, headers: { 'idempotency-key': 'upgrade-submit-0001' } };
        const created = await request(as('public'), 'POST', '/api/v1/feedback', submit);
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        expect(created.body.feedback).to.include({ title: 'Submitted after the upgrade', status: 'new', voteCount: 1 });
        const retried = await request(as('public'), 'POST', '/api/v1/feedback', submit);
        expect({ status: retried.status, body: retried.body }, 'the stored answer, not a second item').to.deep.equal({ status: 201, body: created.body });

        const total = (fixture.answer('list, default order').body as { total: number }).total;
        const list = await request(as('public'), 'GET', '/api/v1/feedback?limit=1');
        expect(list.body.total).to.equal(total + 1);
        expect(list.body.items[0].id, 'the newest item').to.equal(created.body.feedback.id);
      });

      it('when the secret key of 0.1.0 changes a status and comments, then the change joins the history 0.1.0 recorded and the comment is counted', async () => {
        const item = fixture.items.csv!;
        const old = (fixture.answer('detail, merge target, with its status history').body as { feedback: { statusHistory: unknown[]; commentCount: number } }).feedback;
        const changed = await request(as('secret'), 'PATCH', `/api/v1/feedback/${item}`, { body: { status: 'completed', actor: 'Upgrade test' } });
        expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
        const history = changed.body.feedback.statusHistory as Record<string, unknown>[];
        expect(history.slice(0, -1), 'the history of 0.1.0, unchanged').to.deep.equal(old.statusHistory);
        expect(history.at(-1)).to.include({ from: 'in-progress', to: 'completed', actor: 'Upgrade test', keyPrefix: fixture.keys.secret.slice(0, 9) });

        const comment = await request(as('secret'), 'POST', `/api/v1/feedback/${item}/comments`, { body: { content: 'Shipped after the upgrade', team: { name: 'Grace' } } });
        expect(comment.status, JSON.stringify(comment.body)).to.equal(201);
        expect(comment.body.commentCount).to.equal(old.commentCount + 1);
      });

      it('when a key is made with `feedback keys create` while it serves, then the new key works beside the old ones', async () => {
        const run = await feedback(['keys', 'create', '--name', 'after the upgrade', '--json', ...flagsOf(database)]);
        expect(run.code, run.stderr).to.equal(0);
        const { key } = JSON.parse(run.stdout) as { key: string };
        const list = await request({ url: serve!.url, apiKey: key }, 'GET', '/api/v1/feedback?limit=1');
        expect(list.status).to.equal(200);
        expect((await request(as('revoked'), 'GET', '/api/v1/feedback?limit=1')).status, 'the key revoked under 0.1.0 stays revoked').to.equal(401);
      });

      it('when it gets SIGTERM, then it exits 0', async () => {
        serve!.child.kill('SIGTERM');
        expect(await serve!.exited, serve!.stderr()).to.equal(0);
      });
    });
  });
}
