import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The packages' sources: a test reaches them only through the built packages (`@feedbackd/server/testing` and the like). */
const SOURCES = ['sdk/src', 'server/src', 'cli/src'];

/** The module specifiers of `text`: static imports and re-exports, side-effect imports and dynamic imports. */
export function specifiersOf(text: string): string[] {
  const found: string[] = [];
  for (const pattern of [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g]) {
    for (const match of text.matchAll(pattern)) found.push(match[1]!);
  }
  return found;
}

/** The specifiers of the file at `path` (relative to the root) that land in a package's sources by a relative path. */
export function sourceImports(path: string, text: string): string[] {
  return specifiersOf(text).filter((specifier) => {
    if (!specifier.startsWith('.')) return false;
    const target = relative(ROOT, resolve(ROOT, dirname(path), specifier)).split(sep).join('/');
    return SOURCES.some((source) => target === source || target.startsWith(`${source}/`));
  });
}

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return /\.[cm]?[jt]s$/.test(entry.name) ? [path] : [];
  });
}

/*
 * Part of the suite once imported server/src by a relative path while the rest imported the build:
 * tsx ran those sources as they stood, the others ran the last build, and a test could pass on code
 * that no build held (or fail on a change already built). Every test now imports the built packages.
 */
describe('how the tests import the packages', () => {
  it('when a test imports a package source by a relative path, in any of the ways a module is loaded, then it is found', () => {
    // Written with `up` so that this file's own text holds none of them.
    const up = '../..';
    const text = [
      `import { html } from '${up}/server/src/web/kit/html.js';`,
      `export { a } from '${up}/../sdk/src/index.js';`,
      `import '${up}/cli/src/index.js';`,
      `const { main } = await import('${up}/cli/src/index.js');`,
      "import { b } from '@feedbackd/server/testing';",
      "import { c } from '../helpers/until.js';",
      "const css = readFileSync(new URL('../../server/src/web/board/static/board.css', import.meta.url));",
    ].join('\n');
    expect(sourceImports('test/web/x.test.ts', text)).to.deep.equal([`${up}/server/src/web/kit/html.js`, `${up}/cli/src/index.js`, `${up}/cli/src/index.js`]);
    expect(sourceImports('test/web/deeper/x.test.ts', text)).to.include(`${up}/../sdk/src/index.js`);
  });

  it('when every file under test/ is read, then none imports sdk/src, server/src or cli/src by a relative path', () => {
    const files = testFiles('test');
    expect(files.length, 'files read').to.be.greaterThan(100);
    const offenders = files.flatMap((path) => sourceImports(path, readFileSync(join(ROOT, path), 'utf8')).map((specifier) => `${path}: ${specifier}`));
    expect(offenders).to.deep.equal([]);
  });
});
