import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = 'server/src';

/**
 * docs/architecture.md's folder map ("Where the code lives") is where a newcomer looks first: it
 * names every folder of server/src on a line of its own, and only folders that exist, so a folder
 * added, moved or removed without its line fails here, not in a reader's head.
 */
describe('the folder map of docs/architecture.md', () => {
  it('when the map is read against server/src, then it names every folder there and none that is not', () => {
    const mapped = foldersOfMap(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
    const actual = foldersUnder(SOURCE);
    expect(actual.length, 'folders of server/src').to.be.greaterThan(20);
    expect({ missingFromMap: actual.filter((folder) => !mapped.includes(folder)), notInTree: mapped.filter((folder) => !actual.includes(folder)) }).to.deep.equal({
      missingFromMap: [],
      notInTree: [],
    });
  });

  it('when the map is read, then no folder has two lines', () => {
    const mapped = foldersOfMap(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
    expect(mapped.filter((folder, index) => mapped.indexOf(folder) !== index)).to.deep.equal([]);
  });

  it('when a map misses a folder or names one of its own, then the reading tells them apart', () => {
    const map = ['## Where the code lives', '', '```', 'server/src/', '  db/                    the database', '  db/ghost/              gone', '  index.ts               the entry', '```', '## Next'].join('\n');
    expect(foldersOfMap(map)).to.deep.equal(['db', 'db/ghost']);
  });
});

/**
 * The folders the map names: in the first code block after "## Where the code lives", the lines
 * under `server/src/` that begin, indented by two spaces, with a folder path ending in `/`.
 */
function foldersOfMap(doc: string): string[] {
  const section = doc.slice(doc.indexOf('## Where the code lives'));
  const block = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3));
  const folders: string[] = [];
  let inServer = false;
  for (const line of block.split('\n')) {
    if (/^\S/.test(line)) inServer = line.startsWith(`${SOURCE}/`);
    const match = inServer ? /^ {2}([a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*)\/(?:\s|$)/.exec(line) : null;
    if (match) folders.push(match[1]!);
  }
  return folders;
}

/** Every folder under `folder`, as paths relative to it. */
function foldersUnder(folder: string, prefix = ''): string[] {
  return readdirSync(join(ROOT, folder, prefix), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      return [path, ...foldersUnder(folder, path)];
    })
    .sort();
}
