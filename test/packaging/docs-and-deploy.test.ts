import { expect } from 'chai';
import type { Command } from 'commander';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '@feedbackd/cli/testing';
import { spawnRun } from '../helpers/cli-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const UNIT = join(ROOT, 'docs', 'deploy', 'feedback.service');
/** The map of the project: what a reader follows. CHANGELOG.md is history and may name what is gone. */
const GUIDES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
const DOCS = [...GUIDES, 'CHANGELOG.md'];
const text = (doc: string) => readFileSync(join(ROOT, doc), 'utf8');

/**
 * Text in the guides' shell blocks that reads like `feedback <word>` but is no command line. Each
 * is an exact phrase, with why it is there; anything else after `feedback` there must be a command.
 */
const NOT_COMMANDS: ReadonlyMap<string, string> = new Map([
  ['no feedback database in', "the CLI's error for a missing data directory, quoted in cli.md"],
  ['of the feedback repository', "the launcher's error on too old a Node, quoted in operations.md"],
  ['feedback 0.2.0 is ready at', "serve's ready line, quoted in operations.md"],
  ['journalctl -u feedback', 'the systemd unit named feedback (operations.md)'],
  ['sudo -u feedback', 'the system user named feedback that the unit runs as (operations.md)'],
]);

/** What one reference to the CLI in a guide names: the words after `feedback`, and where it is. */
interface CommandLine {
  where: string;
  words: string[];
}

/**
 * The code of a guide, where commands, flags and paths are written: each line of a fenced block
 * (`shell` when it is a shell block: ```sh or no language), and each inline span.
 */
function codeOf(doc: string): { line: number; code: string; kind: 'inline' | 'shell' | 'other' }[] {
  const out: { line: number; code: string; kind: 'inline' | 'shell' | 'other' }[] = [];
  let fence: 'shell' | 'other' | undefined;
  text(doc)
    .split('\n')
    .forEach((line, i) => {
      const opening = /^\s*```(\w*)/.exec(line);
      if (opening) fence = fence ? undefined : ['', 'sh'].includes(opening[1]!) ? 'shell' : 'other';
      else if (fence) out.push({ line: i + 1, code: line, kind: fence });
      else for (const span of line.matchAll(/`([^`]+)`/g)) out.push({ line: i + 1, code: span[1]!, kind: 'inline' });
    });
  return out;
}

/** An inline span that is a command line: `feedback …`, perhaps after variables, npx or a path to the binary. */
const INLINE_COMMAND = /^(?:\$ )?(?:[A-Z_]+=\S* )*(?:npx --no-install |\S*bin\/)?feedback(?:\.js)? /;

/**
 * Every `feedback …` in a guide's code, cut at what ends a shell command (a pipe between commands,
 * `;`, `&&`, a subshell's parenthesis, a comment). `a|b` without spaces is a synopsis' choice, and
 * ` | --flag` a choice of flags: both stay in the command.
 */
function commandLines(doc: string): CommandLine[] {
  const lines: CommandLine[] = [];
  for (const { line, code, kind } of codeOf(doc)) {
    if (kind === 'other' || (kind === 'inline' && !INLINE_COMMAND.test(code))) continue;
    let plain = code.replace(/\\\|/g, '|');
    for (const phrase of NOT_COMMANDS.keys()) plain = plain.replaceAll(phrase, '');
    // A placeholder (`<command>`, `<pid of feedback serve>`) stands for any word.
    plain = plain.replace(/<[^<>]*>/g, '…');
    for (const segment of plain.split(/\s\|\s(?!\s*-)|;|&&|\$\(|\)|\s#\s|`/)) {
      const at = /(?:(?<![\w.@/-])|(?<=bin\/))feedback(?:\.js)?[ \t]+(.*)$/.exec(segment);
      if (!at) continue;
      // The brackets of a synopsis (`[--json]`) are not part of a word.
      const words = at[1]!.replace(/[[\]]/g, ' ').split(/\s+/).filter((w) => w !== '');
      lines.push({ where: `${doc}:${line}: ${code.trim()}`, words });
    }
  }
  return lines;
}

/** The program's options that come before a command, with whether each takes a value. */
const PROGRAM_OPTIONS = new Map([['--url', true], ['--api-key', true], ['--retries', true], ['--json', false], ['--version', false], ['-V', false], ['--help', false], ['-h', false]]);
const PLACEHOLDER = /^(?:<.*>|…|\.\.\.|\S*…)$/;

/** Options documented once for every command that takes them, each in its own section of cli.md. */
const SHARED_OPTIONS: ReadonlyMap<string, string> = new Map([
  ['--data-dir', 'Choosing the database'],
  ['--database-url', 'Choosing the database'],
  ['--url', 'Commands that call the API'],
  ['--api-key', 'Commands that call the API'],
  ['--retries', 'Commands that call the API'],
  ['--json', 'Output conventions'],
]);

/** Whether a text names a command or an option as a whole word (`--grace`, not in `--graceful`). */
function mentions(text: string, word: string): boolean {
  return new RegExp(`(?<![\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text);
}

/** Why a command line does not match the CLI, or nothing when it does. */
function problemWith(program: Command, words: string[]): string | undefined {
  let i = 0;
  while (i < words.length && words[i]!.startsWith('-')) {
    const name = words[i]!.split('=')[0]!;
    if (!PROGRAM_OPTIONS.has(name)) return `${name} is no option of feedback itself`;
    i += PROGRAM_OPTIONS.get(name) && !words[i]!.includes('=') ? 2 : 1;
  }
  if (i >= words.length || PLACEHOLDER.test(words[i]!)) return undefined;
  let commands = [program];
  // `feedback board on|off`: each choice of a synopsis is a command of its own.
  for (;;) {
    const word = words[i];
    const parent = commands[0]!;
    if (parent.commands.length === 0 || word === undefined || word.startsWith('-')) break;
    if (PLACEHOLDER.test(word)) return undefined;
    const names = word.split('|');
    const found = names.map((name) => parent.commands.find((c) => c.name() === name || c.aliases().includes(name)));
    const missing = names.filter((_, n) => !found[n]);
    if (missing.length > 0) return `feedback ${[...pathOf(parent), missing[0]].join(' ')} is no command`;
    commands = found as Command[];
    i += 1;
  }
  if (commands[0]!.commands.length > 0 && words[i] === undefined) return undefined;
  for (const word of words.slice(i)) {
    if (!/^--?[a-zA-Z]/.test(word)) continue;
    const flag = word.split('=')[0]!.replace(/[.,:]$/, '');
    if (flag === '--help' || flag === '-h') continue;
    for (const command of commands) {
      if (!command.options.some((o) => o.long === flag || o.short === flag)) return `${flag} is no option of feedback ${pathOf(command).join(' ')}`;
    }
  }
  return undefined;
}

function pathOf(command: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names;
}

/** Paths of this repository a guide names in its code, such as `server/src/app.ts` or `test/helpers/`. */
function repositoryPaths(doc: string): { where: string; path: string }[] {
  const found: { where: string; path: string }[] = [];
  for (const { line, code } of codeOf(doc)) {
    for (const m of code.matchAll(/(?<![\w./<-])((?:server|sdk|cli|test|scripts|docs|\.ci)\/[\w./*@-]*[\w*/])/g)) {
      found.push({ where: `${doc}:${line}`, path: m[1]! });
    }
  }
  return found;
}

/** A path exists; a glob (`server/src/public/*.sql.ts`) when the folder before its first `*` does. */
function exists(path: string): boolean {
  const star = path.indexOf('*');
  return existsSync(join(ROOT, star < 0 ? path : path.slice(0, path.lastIndexOf('/', star) + 1)));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(file, 'utf8').split('\n').filter((l) => /^#{1,6} /.test(l));
  return new Set(headings.map((h) => anchorOf(h.replace(/^#+ /, ''))));
}

describe('the docs and deployment files', () => {
  let program: Command;
  before(async () => {
    program = await buildProgram();
  });

  it('when the docs show an npx or npm install command, then it can only run this project: never a bare `npx feedback` or a registry install of @feedbackd', () => {
    for (const doc of DOCS) {
      const lines = text(doc).split('\n');
      lines.forEach((line, i) => {
        const where = `${doc}:${i + 1}: ${line}`;
        // A warning that names the dangerous form is fine; an instruction to run it is not.
        const warning = /Never run `npx feedback`|stopping `npx feedback serve`/.test(line);
        for (const run of line.matchAll(/npx((?: +-[\w=-]+)*) +(feedback|@feedbackd)/g)) {
          if (!warning) expect(run[1], `${where}: npx must not be allowed to download`).to.include('--no-install');
        }
        expect(line, where).not.to.match(/npm (install|i) +@feedbackd\//);
      });
    }
  });

  it('when the README and docs name a feedback command, subcommand or flag, then the CLI has it, as that command\'s option', () => {
    const lines = GUIDES.flatMap(commandLines);
    // The guides name every command; a parser that found none would pass anything.
    const named = new Set(lines.map((l) => l.words.find((w) => !w.startsWith('-'))));
    for (const command of program.commands) expect(named, `no guide names feedback ${command.name()}`).to.include(command.name());
    const problems = lines.flatMap(({ where, words }) => {
      const problem = problemWith(program, words);
      return problem ? [`${where}\n    ${problem}`] : [];
    });
    expect(problems, `commands or flags the CLI does not have:\n${problems.join('\n')}\n`).to.deep.equal([]);
  });

  it('when the CLI has a command or an option, then docs/cli.md documents it in that command\'s section', () => {
    const sections = text(join('docs', 'cli.md')).split(/\n(?=#{2,3} )/);
    const missing: string[] = [];
    for (const [option, title] of SHARED_OPTIONS) {
      const shared = sections.find((section) => section.split('\n')[0]!.includes(title));
      if (!shared || !mentions(shared, option)) missing.push(`${option}: not in the section "${title}"`);
    }
    for (const top of program.commands) {
      const heading = new RegExp(`^#{2,3} .*\`(?:feedback )?${top.name()}[ \`]`);
      const own = sections.filter((section) => heading.test(section)).join('\n');
      if (own === '') missing.push(`feedback ${top.name()}: no section`);
      const leaves = (c: Command): Command[] => (c.commands.length === 0 ? [c] : c.commands.flatMap(leaves));
      for (const command of leaves(top)) {
        if (command !== top && !mentions(own, command.name())) missing.push(`feedback ${pathOf(command).join(' ')}: not in its section`);
        for (const option of command.options) {
          if (SHARED_OPTIONS.has(option.long!)) continue;
          if (!mentions(own, option.long!)) missing.push(`feedback ${pathOf(command).join(' ')} ${option.long}: not in its section`);
        }
      }
    }
    expect(missing, `undocumented in docs/cli.md:\n${missing.join('\n')}\n`).to.deep.equal([]);
  });

  it('when the README and docs name a file or folder of the repository, then it exists (a moved file names its new place)', () => {
    const paths = GUIDES.flatMap(repositoryPaths);
    expect(paths.length).to.be.greaterThan(50);
    const missing = paths.filter(({ path }) => !exists(path)).map(({ where, path }) => `${where}: ${path}`);
    expect(missing, `paths that are not in the repository:\n${missing.join('\n')}\n`).to.deep.equal([]);
  });

  it('when the README and docs link or point elsewhere, then they stay inside the repository, at files and headings that exist', () => {
    const problems: string[] = [];
    for (const doc of GUIDES) {
      const source = text(doc);
      const links = [...source.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
      for (const link of links) {
        if (/^(https?:|mailto:)/.test(link)) continue;
        const [file = '', anchor] = link.split('#');
        const target = file === '' ? join(ROOT, doc) : resolve(dirname(join(ROOT, doc)), file);
        if (relative(ROOT, target).startsWith(`..${sep}`)) problems.push(`${doc}: ${link} leaves the repository`);
        else if (!existsSync(target)) problems.push(`${doc}: ${link}: no such file`);
        else if (anchor && target.endsWith('.md') && !anchorsOf(target).has(anchor)) problems.push(`${doc}: ${link}: no such heading`);
      }
      // Outside links, a `../` is a path a reader would follow from the checkout: out of it.
      const unlinked = source.replace(/\]\([^)\s]+\)/g, '](…)');
      for (const m of unlinked.matchAll(/\S*\.\.\/\S*/g)) problems.push(`${doc}: ${m[0]} points outside the repository`);
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('when feedback serve --help lists its environment variables, then operations.md documents every one', () => {
    const serve = program.commands.find((c) => c.name() === 'serve')!;
    const variables = [...serve.helpInformation().matchAll(/env:\s+(\w+)/g)].map((m) => m[1]!);
    expect(variables.length).to.be.greaterThan(8);
    const operations = text(join('docs', 'operations.md'));
    for (const name of variables) expect(operations, name).to.include(`| \`${name}\` |`);
  });

  it('when systemd-analyze is installed, then the systemd unit verifies without a message about it', async function () {
    const probe = await spawnRun('sh', ['-c', 'command -v systemd-analyze']);
    if (probe.code !== 0) this.skip();
    const result = await spawnRun('systemd-analyze', ['verify', UNIT]);
    const aboutUnit = (result.stdout + result.stderr).split('\n').filter((line) => line.includes('feedback.service'));
    expect(aboutUnit, result.stderr).to.deep.equal([]);
    expect(result.code, result.stderr).to.equal(0);
    // It starts the installed binary itself (signals reach the server), never through npx or npm.
    const unit = readFileSync(UNIT, 'utf8');
    expect(unit).to.match(/^ExecStart=\/usr\/bin\/node \/opt\/feedback\/node_modules\/@feedbackd\/cli\/bin\/feedback\.js serve$/m);
    const bin = (JSON.parse(readFileSync(join(ROOT, 'cli', 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.feedback;
    expect(bin).to.equal('./bin/feedback.js');
  });
});
