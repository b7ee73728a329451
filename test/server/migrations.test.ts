import { expect } from 'chai';
import { migrateDown, migrateUp, migrationStatus, openDatabase, openOrm } from '@feedbackd/server';
import { backends, type Backend } from '../helpers/backends.js';

const ALL = [
  'Migration20261121000000_pg_trgm',
  'Migration20261121000100_initial_schema',
  'Migration20261121000200_idempotency_keys',
  'Migration20261122000300_hot_path',
  'Migration20261123000400_admin_api',
  'Migration20261123000500_search_text',
];

/** Runs `test` on the ORM of a fresh, empty database of `backend`, then closes and drops it. */
async function withFreshOrm(backend: Backend, test: (orm: Awaited<ReturnType<typeof openOrm>>) => Promise<void>): Promise<void> {
  const fresh = await backend.create();
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

    it('when keys were stored before secret keys existed (migration 000400), then they are public keys afterwards', async () => {
      await withFreshOrm(backend, async (orm) => {
        await migrateUp(orm);
        expect(await migrateDown(orm)).to.deep.equal([ALL[5]]);
        expect(await migrateDown(orm)).to.deep.equal([ALL[4]]);
        const connection = orm.em.fork().getConnection();
        await connection.execute(`insert into projects (slug, name, voter_salt) values ('default', 'Default', 'salt')`);
        await connection.execute(`insert into api_keys (project_id, key_hash, key_prefix) select id, 'hash', 'pk_abcdef' from projects`);
        expect(await migrateUp(orm)).to.deep.equal([ALL[4], ALL[5]]);
        expect(await connection.execute(`select kind from api_keys`)).to.deep.equal([{ kind: 'public' }]);
      });
    });

    it('when items were stored before search_text existed (migration 000500), then they get it, and down brings back the per-column indexes', async () => {
      await withFreshOrm(backend, async (orm) => {
        await migrateUp(orm);
        expect(await migrateDown(orm)).to.deep.equal([ALL[5]]);
        const connection = orm.em.fork().getConnection();
        await connection.execute(`insert into projects (slug, name, voter_salt) values ('default', 'Default', 'salt')`);
        await connection.execute(
          `insert into feedback (project_id, title, description) select id, 'Dark MODE', 'For the Night' from projects
           union all select id, 'No description', null from projects`,
        );
        expect(await migrateUp(orm)).to.deep.equal([ALL[5]]);
        const rows = await connection.execute(`select title, search_text from feedback order by title`);
        expect(rows).to.deep.equal([
          { title: 'Dark MODE', search_text: 'dark mode\u001ffor the night' },
          { title: 'No description', search_text: 'no description\u001f' },
        ]);
        const indexes = async () =>
          (await connection.execute<{ name: string }[]>(`select indexname as name from pg_indexes where tablename = 'feedback' and indexname like '%trgm%' order by 1`)).map((row) => row.name);
        expect(await indexes()).to.deep.equal(['feedback_search_text_trgm_index']);
        await migrateDown(orm);
        expect(await indexes()).to.deep.equal(['feedback_description_trgm_index', 'feedback_title_trgm_index']);
      });
    });

    it('when migrated down and up again, then the schema is rebuilt', async () => {
      await withFreshOrm(backend, async (orm) => {
        await migrateUp(orm);
        expect(await migrateDown(orm)).to.deep.equal([ALL[5]]);
        expect(await migrateDown(orm)).to.deep.equal([ALL[4]]);
        expect(await migrateDown(orm)).to.deep.equal([ALL[3]]);
        expect(await migrateDown(orm)).to.deep.equal([ALL[2]]);
        expect(await migrateDown(orm)).to.deep.equal([ALL[1]]);
        const tables = await orm.em.fork().getConnection().execute(`select to_regclass('public.feedback') as t, to_regclass('public.idempotency_keys') as k`);
        expect(tables[0]).to.deep.equal({ t: null, k: null });
        expect(await migrateUp(orm)).to.deep.equal(ALL.slice(1));
        expect((await orm.schema.getUpdateSchemaSQL({ wrap: false })).trim()).to.equal('');
      });
    });
  });
}
