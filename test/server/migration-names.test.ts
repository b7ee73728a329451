import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The rule for naming a migration (server/src/db/migrations/index.ts, docs/releasing.md):
// `Migration` and a four-digit sequence number, `_`, what it does in snake case; the next is the
// last number plus one. Read as text: the rule is about the files and the list, not what they run.

const FOLDER = fileURLToPath(new URL('../../server/src/db/migrations/', import.meta.url));
const INDEX = readFileSync(`${FOLDER}index.ts`, 'utf8');
const NAME = /^Migration(\d{4})_([a-z0-9]+(?:_[a-z0-9]+)*)$/;

/** The names of the list, in the order the migrator applies them. */
const listed = [...INDEX.matchAll(/\{ name: '([^']+)', class: (\w+) \}/g)].map((m) => ({ name: m[1]!, className: m[2]! }));

describe('migration names', () => {
  it('when the index lists the migrations, then each name is Migration, a four-digit number and a snake-case purpose', () => {
    expect(listed.length, 'migrations in the index').to.be.at.least(29);
    const wrong = listed.filter(({ name }) => !NAME.test(name)).map(({ name }) => name);
    expect(wrong).to.deep.equal([]);
  });

  it('when the names are sorted, then they are in the order the index applies them, numbered 1, 2, 3... with no number twice', () => {
    const names = listed.map(({ name }) => name);
    expect([...names].sort(), 'sorted as text').to.deep.equal(names);
    const numbers = names.map((name) => Number(NAME.exec(name)?.[1]));
    expect(numbers).to.deep.equal(names.map((_, i) => i + 1));
  });

  it('when a migration is listed, then its file has its name and its class the name without the underscores, imported from that file', () => {
    const files = readdirSync(FOLDER).filter((file) => file.startsWith('Migration'));
    expect(files.sort(), 'one file per listed migration, no other').to.deep.equal(listed.map(({ name }) => `${name}.ts`).sort());
    for (const { name, className } of listed) {
      const [, number, purpose] = NAME.exec(name)!;
      const expected = `Migration${number}${purpose!.split('_').map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')}`;
      expect(className, name).to.equal(expected);
      expect(INDEX, name).to.include(`import { ${className} } from './${name}.js';`);
      expect(readFileSync(`${FOLDER}${name}.ts`, 'utf8'), name).to.include(`export class ${className} extends Migration`);
    }
  });

  it('when a former name is carried over, then it maps to a listed migration, one to one, in the same order', () => {
    const formerNames = readFileSync(`${FOLDER}former-names.ts`, 'utf8');
    const pairs = [...formerNames.matchAll(/\['(Migration\w+)', '(Migration\w+)'\]/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(pairs.length, 'the migrations numbered in 0.2.0').to.equal(29);
    expect(pairs.map(([, current]) => current)).to.deep.equal(listed.slice(0, pairs.length).map(({ name }) => name));
    const former = pairs.map(([old]) => old);
    expect(new Set(former).size, 'no former name twice').to.equal(former.length);
    // The purpose survives the renaming: only the number changed.
    for (const [old, current] of pairs) expect(old.replace(/^Migration\d+_/, ''), old).to.equal(current.replace(/^Migration\d+_/, ''));
  });
});
