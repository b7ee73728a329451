import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFeedback } from '../helpers/cli-process.js';

// The README is where a newcomer looks first: it must name every guide and every command group,
// and stay short enough to be read to its end.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const MAX_LINES = 160;

/** Every file under docs/, as a path from the repository's root. */
function docsFiles(dir = join(ROOT, 'docs')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? docsFiles(join(dir, entry.name)) : [relative(ROOT, join(dir, entry.name)).split('\\').join('/')],
  );
}

/** The top-level commands `feedback --help` lists (its own `help` left out). */
function commandsOf(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1]?.split(/\n\s*\n/)[0] ?? '';
  return [...section.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!).filter((name) => name !== 'help');
}

describe('the README as a map', () => {
  it('when a file is in docs/, then the README links it', () => {
    const files = docsFiles();
    expect(files.length, 'files in docs/').to.be.greaterThan(10);
    const unlinked = files.filter((file) => !README.includes(`](${file})`));
    expect(unlinked, 'docs the README does not link').to.deep.equal([]);
  });

  it('when `feedback --help` lists a command, then the README names it in code', async () => {
    const run = await runFeedback(['--help']);
    expect(run.code, run.stderr).to.equal(0);
    const commands = commandsOf(run.stdout);
    // The help lists about thirty; a parse that found a handful would pass a README that names few.
    expect(commands.length, run.stdout).to.be.greaterThan(25);
    const unnamed = commands.filter((name) => !README.includes(`\`${name}\``));
    expect(unnamed, 'commands the README does not name').to.deep.equal([]);
  });

  it(`when the README is read, then it is at most ${MAX_LINES} lines`, () => {
    expect(README.trimEnd().split('\n').length).to.be.at.most(MAX_LINES);
  });

  it('when the quick start is followed, then it installs and builds, serves with this checkout\'s binary, then runs the tests, in that order', () => {
    const start = README.slice(README.indexOf('## Quick start'), README.indexOf('\n## ', README.indexOf('## Quick start') + 1));
    const steps = ['npm ci', 'npx --no-install feedback serve', 'npm test'].map((step) => start.indexOf(`\n${step} `));
    expect(steps.every((at) => at >= 0), `the quick start's commands at ${steps.join(', ')}`).to.equal(true);
    expect([...steps].sort((a, b) => a - b)).to.deep.equal(steps);
    // `npm ci` builds too: the root's prepare script runs the build.
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(root.scripts.prepare).to.equal('npm run build');
  });
});
