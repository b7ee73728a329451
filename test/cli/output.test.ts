import { expect } from 'chai';
import { truncate } from '@feedbackd/cli/testing';
import { embeddedBackend } from '../helpers/backends.js';
import { inProcess, runFeedback as feedback } from '../helpers/cli-process.js';
import { request, withServer } from '../helpers/test-server.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
/** A UTF-16 surrogate without its other half: what a cut through an emoji leaves behind. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('feedback CLI output: truncation, pages, errors', function () {
  const server = withServer(embeddedBackend);
  let api: string[];
  const run = (args: string[], options: { tty?: boolean } = {}) => inProcess([...args, ...api], options);

  before(async () => {
    api = ['--url', server.url, '--api-key', server.apiKey];
  });

  describe('truncate', () => {
    it('when a title of emoji, flags and accents is cut, then every character is kept whole', () => {
      const family = '👨‍👩‍👧';
      const text = `${family}${'🇫🇷'}e\u0301${'😀'.repeat(10)}`;
      const cut = truncate(text, 5);
      expect(cut).to.equal(`${family}🇫🇷e\u0301😀…`);
      expect(cut).not.to.match(LONE_SURROGATE);
      expect(truncate('short', 60)).to.equal('short');
      expect(truncate('😀'.repeat(30), 30), '30 characters fit in 30 even when they are 60 code units').to.equal('😀'.repeat(30));
    });

    it('when a long emoji title is listed on a terminal, then the table cuts it between characters', async () => {
      const title = `trunc ${'🎉'.repeat(80)}`;
      const created = await request(server, 'POST', '/api/v1/feedback', { body: { title } });
      expect(created.status).to.equal(201);
      const result = await run(['list', '--search', 'trunc'], { tty: true });
      expect(result.code, result.stderr).to.equal(0);
      const row = result.stdout.split('\n')[1]!;
      expect(row).to.include('trunc 🎉').and.match(/🎉…$/);
      expect(row).not.to.match(LONE_SURROGATE);
    });
  });

  describe('pages', () => {
    const tag = 'pagetag';
    before(async () => {
      for (let i = 0; i < 3; i += 1) {
        const res = await request(server, 'POST', '/api/v1/feedback', { body: { title: `${tag} two words ${i}`, type: 'bug' } });
        expect(res.status).to.equal(201);
      }
    });

    it('when the list has a next page, then the hint repeats every filter, the sort and the size, quoted for the shell', async () => {
      const result = await run(['list', '--search', `${tag} two`, '--status', 'new', '--type', 'bug,idea', '--sort', 'votes', '--limit', '1'], { tty: true });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.equal(
        `page 1 of 3, 3 items in all; next: feedback list --status new --type bug,idea --search '${tag} two' --sort votes --limit 1 --url ${server.url} --page 2\n`,
      );
    });

    it('when the page is past the last one, then one line says so and names the last page, piped or not', async () => {
      for (const tty of [true, false]) {
        const result = await run(['list', '--search', tag, '--limit', '2', '--page', '99'], { tty });
        expect(result.code).to.equal(0);
        expect(result.stdout).to.equal('');
        expect(result.stderr).to.equal(`Page 99 is past the end: 3 items match, on 2 pages; the last is feedback list --search ${tag} --limit 2 --url ${server.url} --page 2\n`);
      }
    });

    it('when nothing matches at all, then a terminal says "No feedback matches." and nothing more', async () => {
      const none = await run(['list', '--search', 'no-such-text-anywhere', '--page', '3'], { tty: true });
      expect(none.stdout).to.equal('No feedback matches.\n');
      expect(none.stderr).to.equal('');
    });
  });

  describe('errors', () => {
    it('when commander itself rejects the command line, then the error starts with "feedback:" like every other error', async () => {
      const unknown = await feedback(['frobnicate']);
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.match(/^feedback: unknown command 'frobnicate'/);
      const flag = await feedback(['list', '--bogus']);
      expect(flag.stderr).to.match(/^feedback: unknown option '--bogus'/);
      const missing = await feedback(['show']);
      expect(missing.stderr).to.match(/^feedback: missing required argument 'id'/);
    });

    it('when --json is given, then a usage error is one JSON object on stderr with the exit code', async () => {
      const result = await feedback(['list', '--json', '--bogus']);
      expect(result.code).to.equal(2);
      expect(result.stdout).to.equal('');
      expect(JSON.parse(result.stderr)).to.deep.equal({ error: "unknown option '--bogus'", exitCode: 2 });
    });

    it("when --json is given and the server refuses a field, then the JSON error carries the server's details", async () => {
      const result = await run(['submit', '', '--json']);
      expect(result.code).to.equal(2);
      expect(JSON.parse(result.stderr)).to.deep.equal({
        error: 'Invalid input: title: Title is required',
        exitCode: 2,
        details: { formErrors: [], fieldErrors: { title: ['Title is required'] } },
      });
    });

    it('when --json is given and the item is unknown, then the JSON error has exit code 3', async () => {
      const result = await run(['--json', 'show', UNKNOWN_ID]);
      expect(result.code).to.equal(3);
      expect(JSON.parse(result.stderr)).to.deep.equal({ error: 'Feedback not found', exitCode: 3 });
    });
  });
});
