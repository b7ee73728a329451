import { expect } from 'chai';
import { migrateDown, migrateUp, migrationStatus, openDatabase, openOrm, unappliedMigrations } from '@feedbackd/server';
import { backends, type Backend } from '../helpers/backends.js';
import { nextMillisecond } from '../helpers/until.js';

const ALL = [
  'Migration0001_pg_trgm',
  'Migration0002_initial_schema',
  'Migration0003_idempotency_keys',
  'Migration0004_hot_path',
  'Migration0005_admin_api',
  'Migration0006_search_text',
  'Migration0007_time_ordered_ids',
  'Migration0008_vote_batches',
  'Migration0009_exactly_once',
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

/** The names of ALL before 0.2.0 numbered them, which databases made earlier recorded. */
const FORMER = [
  'Migration20261121000000_pg_trgm',
  'Migration20261121000100_initial_schema',
  'Migration20261121000200_idempotency_keys',
  'Migration20261122000300_hot_path',
  'Migration20261123000400_admin_api',
  'Migration20261123000500_search_text',
  'Migration20261123000600_time_ordered_ids',
  'Migration20261123000700_vote_batches',
  'Migration20261125000800_exactly_once',
  'Migration20261125000900_webhooks',
  'Migration20261126001000_webhook_listeners',
  'Migration20261126001100_outbox_fan_out',
  'Migration20261127001200_board',
  'Migration20261127001300_board_identity',
  'Migration20261127001400_team_sessions',
  'Migration20261128001500_voter_secret',
  'Migration20261128001600_board_brand',
  'Migration20261129001700_board_locale',
  'Migration20261130001800_conversation',
  'Migration20261201001000_changelog',
  'Migration20261202001100_subscriptions',
  'Migration20261203001200_moderation',
  'Migration20261204001300_notifications',
  'Migration20261205001400_widget',
  'Migration20261207001600_subscribe_on_vote',
  'Migration20261208001700_toggle_batch_statement',
  'Migration20261209001800_notification_holds',
  'Migration20261209001900_block_expiry',
  'Migration20261209002000_held_edits',
];

/** Reverts the migrations one at a time, newest first, through `name`: each step reverts exactly the next one. */
async function revertThrough(orm: Awaited<ReturnType<typeof openOrm>>, name: string): Promise<void> {
  const last = ALL.indexOf(name);
  expect(last, name).to.be.at.least(0);
  for (let i = ALL.length - 1; i >= last; i--) expect(await migrateDown(orm)).to.deep.equal([ALL[i]]);
}

/**
 * Runs `test` on the ORM of a new database of `backend`, then closes and drops it: a truly empty
 * one, or with `migrated` a copy of the migrated template (for tests that start from the newest
 * schema and revert, which is the same state and seconds quicker than migrating).
 */
async function withFreshOrm(backend: Backend, test: (orm: Awaited<ReturnType<typeof openOrm>>) => Promise<void>, from: 'empty' | 'migrated' = 'empty'): Promise<void> {
  const fresh = from === 'migrated' ? await backend.createMigrated() : await backend.create();
  const database = await openDatabase(fresh.location, 'operator');
  const orm = await openOrm(database);
  try {
    await test(orm);
  } finally {
    await orm.close();
    await database.close();
    await fresh.drop();
  }
}

for (const backend of backends()) {
  describe(`migrations (${backend.name})`, () => {
    it('when applied to an empty database, then every migration runs in order and the schema equals the entities', async () => {
      await withFreshOrm(backend, async (orm) => {
        expect((await migrationStatus(orm)).pending).to.deep.equal(ALL);
        expect(await migrateUp(orm)).to.deep.equal(ALL);
        expect(await migrateUp(orm), 'a second run has nothing to do').to.deep.equal([]);
        const status = await migrationStatus(orm);
        expect(status.pending).to.deep.equal([]);
        expect(status.executed.map((m) => m.name)).to.deep.equal(ALL);
        const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false });
        expect(diff.trim(), 'entities and migrations describe the same schema').to.equal('');
        const ext = await orm.em.fork().getConnection().execute(`select extname from pg_extension where extname = 'pg_trgm'`);
        expect(ext).to.have.length(1);
      });
    });

    it('when keys were stored before secret keys existed (migration 0005), then they are public keys afterwards', async () => {
      await withFreshOrm(backend, async (orm) => {
        await migrateUp(orm);
        await revertThrough(orm, ALL[4]!);
        const connection = orm.em.fork().getConnection();
        await connection.execute(`insert into projects (slug, name, voter_salt) values ('default', 'Default', 'salt')`);
        await connection.execute(`insert into api_keys (project_id, key_hash, key_prefix) select id, 'hash', 'pk_abcdef' from projects`);
        expect(await migrateUp(orm)).to.deep.equal(ALL.slice(4));
        expect(await connection.execute(`select kind from api_keys`)).to.deep.equal([{ kind: 'public' }]);
      }, 'migrated');
    });

    it('when items were stored before search_text existed (migration 0006), then they get it, and down brings back the per-column indexes', async () => {
      await withFreshOrm(backend, async (orm) => {
        await migrateUp(orm);
        await revertThrough(orm, ALL[5]!);
        const connection = orm.em.fork().getConnection();
        await connection.execute(`insert into projects (slug, name, voter_salt) values ('default', 'Default', 'salt')`);
        await connection.execute(
          `insert into feedback (project_id, title, description) select id, 'Dark MODE', 'For the Night' from projects
           union all select id, 'No description', null from projects`,
        );
        expect(await migrateUp(orm)).to.deep.equal(ALL.slice(5));
        const rows = await connection.execute(`select title, search_text from feedback order by title`);
        expect(rows).to.deep.equal([
          { title: 'Dark MODE', search_text: 'dark mode\u001ffor the night' },
          { title: 'No description', search_text: 'no description\u001f' },
        ]);
        const indexes = async () =>
          (await connection.execute<{ name: string }[]>(`select indexname as name from pg_indexes where tablename = 'feedback' and indexname like '%trgm%' order by 1`)).map((row) => row.name);
        expect(await indexes()).to.deep.equal(['feedback_search_text_trgm_index']);
        await revertThrough(orm, ALL[5]!);
        expect(await indexes()).to.deep.equal(['feedback_description_trgm_index', 'feedback_title_trgm_index']);
      }, 'migrated');
    });

    it('when rows are added after migration 0007, then their ids are time-ordered (version 7); rows from before keep theirs, and down brings back random ids', async () => {
      await withFreshOrm(backend, async (orm) => {
        await migrateUp(orm);
        await revertThrough(orm, ALL[6]!);
        const connection = orm.em.fork().getConnection();
        await connection.execute(`insert into projects (slug, name, voter_salt) values ('default', 'Default', 'salt')`);
        const addItem = async (title: string) =>
          (await connection.execute<{ id: string }[]>(`insert into feedback (project_id, title) select id, ? from projects returning id::text`, [title]))[0]!.id;
        const before = await addItem('before');
        expect(before[14], 'a random (version 4) id before the migration').to.equal('4');
        expect(await migrateUp(orm)).to.deep.equal(ALL.slice(6));
        await revertThrough(orm, ALL[7]!);
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          ids.push(await addItem(`after ${i}`));
          await nextMillisecond();
        }
        const versioned = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
        for (const id of ids) expect(id).to.match(versioned);
        expect([...ids].sort(), 'ids made a few milliseconds apart sort in the order they were made').to.deep.equal(ids);
        const millis = Number.parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16);
        expect(Math.abs(millis - Date.now()), 'the first 48 bits are the time of creation in Unix milliseconds').to.be.below(60_000);
        const [kept] = await connection.execute<{ n: number }[]>(`select count(*)::int as n from feedback where id = ?`, [before]);
        expect(kept!.n, 'the row from before keeps its id').to.equal(1);
        const user = await connection.execute<{ id: string }[]>(
          `insert into end_users (project_id, external_id) select id, 'u1' from projects returning id::text`,
        );
        const vote = await connection.execute<{ id: string }[]>(
          `insert into votes (feedback_id, voter_key) values (?, 'k') returning id::text`, [ids[0]],
        );
        const comment = await connection.execute<{ id: string }[]>(
          `insert into comments (feedback_id, content) values (?, 'hi') returning id::text`, [ids[0]],
        );
        for (const [row] of [user, vote, comment]) expect(row!.id).to.match(versioned);
        expect(await migrateDown(orm)).to.deep.equal([ALL[6]]);
        expect((await addItem('after down'))[14], 'random ids again after down').to.equal('4');
        const [fn] = await connection.execute<{ present: boolean }[]>(`select to_regproc('time_ordered_uuid') is not null as present`);
        expect(fn!.present).to.equal(false);
      }, 'migrated');
    });

    it('when projects existed before the board (migration 0013), then the default project shows its board and the others do not', async () => {
      await withFreshOrm(backend, async (orm) => {
        const board = ALL.indexOf('Migration0013_board');
        await revertThrough(orm, ALL[board]!);
        const connection = orm.em.fork().getConnection();
        await connection.execute(`insert into projects (slug, name, voter_salt) values ('default', 'Default', 'salt'), ('acme', 'Acme', 'salt')`);
        expect(await migrateUp(orm)).to.deep.equal(ALL.slice(board));
        expect(await connection.execute(`select slug, board_enabled from projects order by slug`)).to.deep.equal([
          { slug: 'acme', board_enabled: false },
          { slug: 'default', board_enabled: true },
        ]);
      }, 'migrated');
    });

    it('when a database recorded its migrations under the names they had before 0.2.0, then they count as applied under their numbered names, with their ids and times, and nothing runs again', async () => {
      await withFreshOrm(backend, async (orm) => {
        const connection = orm.em.fork().getConnection();
        const before = await connection.execute<{ id: number; executed_at: Date }[]>('select id, executed_at from mikro_orm_migrations order by id');
        // As an earlier version left them: the names of FORMER, one of them with the file ending older MikroORMs stored.
        for (const [i, former] of FORMER.entries()) {
          await connection.execute('update mikro_orm_migrations set name = ? where name = ?', [i === 3 ? `${former}.js` : former, ALL[i]]);
        }
        // The read-only look of the operator commands, which must not write, maps the names itself.
        expect(await unappliedMigrations(orm), 'what `feedback keys` would call pending').to.deep.equal([]);
        const recorded = await connection.execute<{ name: string }[]>('select name from mikro_orm_migrations order by id');
        expect(recorded[0]!.name, 'unappliedMigrations wrote nothing').to.equal(FORMER[0]);
        const status = await migrationStatus(orm);
        expect(status.executed.map((m) => m.name)).to.deep.equal(ALL);
        expect(status.pending).to.deep.equal([]);
        expect(await migrateUp(orm), 'nothing to apply').to.deep.equal([]);
        const after = await connection.execute<{ id: number; executed_at: Date; name: string }[]>('select id, executed_at, name from mikro_orm_migrations order by id');
        expect(after.map(({ id, executed_at }) => ({ id, executed_at }))).to.deep.equal(before);
        expect(after.map((row) => row.name)).to.deep.equal(ALL);
        expect(await migrateDown(orm), 'the newest reverts by its new name').to.deep.equal([ALL.at(-1)]);
      }, 'migrated');
    });

    it('when migrated down and up again, then the schema is rebuilt', async () => {
      await withFreshOrm(backend, async (orm) => {
        await migrateUp(orm);
        await revertThrough(orm, ALL[1]!);
        const tables = await orm.em.fork().getConnection().execute(`select to_regclass('public.feedback') as t, to_regclass('public.idempotency_keys') as k`);
        expect(tables[0]).to.deep.equal({ t: null, k: null });
        expect(await migrateUp(orm)).to.deep.equal(ALL.slice(1));
        expect((await orm.schema.getUpdateSchemaSQL({ wrap: false })).trim()).to.equal('');
      }, 'migrated');
    });
  });
}
