import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { migrateDown, migrateUp, openDatabase, openOrm } from '@feedbackd/server';
import { backends } from '../helpers/backends.js';
import { schemaTextOf } from '../../scripts/schema-text.js';

const COMMITTED = new URL('../../server/src/db/schema.sql', import.meta.url);
const MIGRATIONS = new URL('../../server/src/db/migrations/', import.meta.url);
const STALE = 'server/src/db/schema.sql differs from what the migrations make: run `npm run schema` and commit the file';

/*
 * The committed schema is generated on the embedded database (PostgreSQL 18); PostgreSQL 15 prints
 * every object of this schema in the same words, so both backends compare with the one file.
 */
for (const backend of backends()) {
  describe(`the generated schema (${backend.name})`, () => {
    it('when a database is freshly migrated, then its schema text equals the committed server/src/db/schema.sql', async () => {
      // A copy of this run's template, which was migrated from nothing.
      const fresh = await backend.createMigrated();
      try {
        const database = await openDatabase(fresh.location, 'operator');
        try {
          expect((await schemaTextOf(database)) === readFileSync(COMMITTED, 'utf8'), STALE).to.equal(true);
        } finally {
          await database.close();
        }
      } finally {
        await fresh.drop();
      }
    });

    it('when every migration is reverted and applied again, then the schema text is the committed one again', async function () {
      // Thirty migration steps on PGlite: 20 s alone, near a minute on a busy 2-core machine.
      this.timeout(180_000);
      const fresh = await backend.createMigrated();
      try {
        const database = await openDatabase(fresh.location, 'operator');
        try {
          const orm = await openOrm(database);
          try {
            let reverted = 0;
            while ((await migrateDown(orm)).length > 0) reverted++;
            expect(reverted).to.equal(migrationFiles().length);
            expect(await migrateUp(orm)).to.have.length(reverted);
          } finally {
            await orm.close();
          }
          expect((await schemaTextOf(database)) === readFileSync(COMMITTED, 'utf8'), 'the migrations down and up again leave another schema').to.equal(true);
        } finally {
          await database.close();
        }
      } finally {
        await fresh.drop();
      }
    });
  });
}

function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS).filter((name) => /^Migration\d+_\w+\.ts$/.test(name));
}

describe('the migrations as frozen history', () => {
  it('when a migration is read, then its SQL is its own literal text: it imports only the Migration class and interpolates nothing', () => {
    const files = migrationFiles();
    expect(files.length).to.be.above(0);
    for (const file of files) {
      const text = readFileSync(new URL(file, MIGRATIONS), 'utf8');
      const imports = [...text.matchAll(/^import\b[^;]*;/gm)].map((match) => match[0]);
      expect(imports, `${file} builds its SQL from another file`).to.deep.equal([`import { Migration } from '@mikro-orm/migrations';`]);
      expect(text.includes('${'), `${file} builds its SQL from values: write the text it runs`).to.equal(false);
    }
  });
});
