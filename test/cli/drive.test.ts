import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { addComment } from '@feedbackd/server/testing';
import { embeddedBackend } from '../helpers/backends.js';
import { BIN, inProcess, runFeedback as feedback, spawnRun } from '../helpers/cli-process.js';
import { startTestServer, withServer, type TestServer } from '../helpers/test-server.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A port nothing listens on: bound once by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The script of README.md between the cli-script markers, without its code fence. */
function readmeScript(): string {
  const readme = readFileSync(README, 'utf8');
  const match = /<!-- cli-script:start -->\n```sh\n([\s\S]*?)```\n<!-- cli-script:end -->/.exec(readme);
  if (!match) throw new Error('README.md has no script between <!-- cli-script:start --> and <!-- cli-script:end -->');
  return match[1]!;
}

describe('feedback CLI: identify, submit, list, show, vote', function () {
  let server: TestServer;
  /** `--url` and `--api-key` of the test server, for in-process runs. */
  let api: string[];
  /** The variables of the test server, for spawned runs. */
  let env: Record<string, string>;
  /** Runs in-process against the test server, with the API options after the command. */
  const run = (args: string[], options: { tty?: boolean } = {}) => inProcess([...args, ...api], options);

  before(async () => {
    server = await startTestServer(embeddedBackend);
    api = ['--url', server.url, '--api-key', server.apiKey];
    env = { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: server.apiKey };
  });
  after(async () => server?.close());

  /** Submits an item and returns its id (piped output is the bare id). */
  async function submit(title: string, ...flags: string[]): Promise<string> {
    const result = await run(['submit', title, ...flags]);
    expect(result.code, result.stderr).to.equal(0);
    return result.stdout.trim();
  }

  async function projectId(): Promise<string> {
    const rows = await server.server.orm.em.fork().execute<{ id: string }[]>(`select id from projects where slug = 'default'`);
    return rows[0]!.id;
  }

  /** The number of requests the server has logged so far. */
  const requestCount = () => server.logs.filter((line) => line.startsWith('INFO request')).length;

  describe('help', () => {
    it('when --help is asked, then the API commands, their variables and the exit codes are listed', async () => {
      const top = await feedback(['--help']);
      expect(top.code).to.equal(0);
      for (const text of ['identify', 'submit', 'list', 'show', 'vote', 'FEEDBACK_URL', 'FEEDBACK_API_KEY', 'FEEDBACK_RETRIES', 'Exit codes', '5  rate limited']) {
        expect(top.stdout).to.include(text);
      }
      for (const command of ['identify', 'submit', 'list', 'show', 'vote']) {
        const help = await inProcess([command, '--help']);
        expect(help.code).to.equal(0);
        // Help wraps long lines, so compare with the white space squeezed.
        const text = help.stdout.replace(/\s+/g, ' ');
        expect(text, command).to.include('--json').and.include('env: FEEDBACK_URL').and.include('env: FEEDBACK_API_KEY').and.include('env: FEEDBACK_RETRIES');
      }
    });
  });

  describe('identify', () => {
    it('when --json is given, then stdout is one {user} document with the fields sent', async () => {
      const result = await run(['identify', 'id-json', '--email', 'ada@example.com', '--name', 'Ada', '--avatar-url', 'https://example.com/a.png', '--metadata', '{"plan":"pro"}', '--json']);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.equal('');
      const body = JSON.parse(result.stdout) as { user: Record<string, unknown> };
      expect(Object.keys(body)).to.deep.equal(['user']);
      expect(body.user).to.include({ email: 'ada@example.com', name: 'Ada', avatarUrl: 'https://example.com/a.png' });
    });

    it('when piped, then it prints the user id alone; on a terminal, a detail view', async () => {
      const json = JSON.parse((await run(['identify', 'id-plain', '--name', 'Bo', '--json'])).stdout) as { user: { id: string } };
      const piped = await run(['identify', 'id-plain']);
      expect(piped.stdout).to.equal(`${json.user.id}\n`);
      const tty = await run(['identify', 'id-plain', '--email', 'bo@example.com'], { tty: true });
      expect(tty.code).to.equal(0);
      expect(tty.stdout).to.match(/^Identified id-plain\n/).and.match(/Name +Bo\n/).and.match(/Email +bo@example\.com\n/);
    });

    it('when --metadata is not a JSON object, then it exits 2 before any request', async () => {
      const before = requestCount();
      for (const metadata of ['nope', '[1,2]', '"text"', 'null']) {
        const result = await run(['identify', 'id-bad', '--metadata', metadata]);
        expect(result.code, metadata).to.equal(2);
        expect(result.stdout).to.equal('');
        expect(result.stderr).to.match(/^feedback: --metadata must be a JSON object/);
      }
      expect(requestCount()).to.equal(before);
    });

    it('when the server rejects a field (400), then it exits 2 with the field message', async () => {
      const result = await run(['identify', 'id-bad', '--email', 'not-an-email']);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.equal('feedback: Invalid input: email: email must be a valid email address\n');
    });
  });

  describe('submit', () => {
    it('when --json is given, then stdout is one {feedback} document: new, one vote, the author named', async () => {
      const result = await run(['submit', 'Submit JSON', '--description', 'Longer text', '--type', 'bug', '--user', 'sub-1', '--user-name', 'Sue', '--user-email', 'sue@example.com', '--metadata', '{"page":"/x"}', '--json']);
      expect(result.code, result.stderr).to.equal(0);
      const body = JSON.parse(result.stdout) as { feedback: Record<string, unknown> };
      expect(Object.keys(body)).to.deep.equal(['feedback']);
      expect(body.feedback).to.include({ title: 'Submit JSON', description: 'Longer text', type: 'bug', status: 'new', voteCount: 1, commentCount: 0 });
      expect(body.feedback.endUser).to.deep.equal({ name: 'Sue', avatarUrl: null });
    });

    it('when piped, then it prints the new id alone; on a terminal, the item and a hint on stderr', async () => {
      const id = await submit('Submit piped');
      expect(id).to.match(/^[0-9a-f-]{36}$/);
      const tty = await run(['submit', 'Submit on a terminal', '--type', 'question'], { tty: true });
      expect(tty.code).to.equal(0);
      expect(tty.stdout).to.match(/^Submitted [0-9a-f-]{36}\n/).and.match(/Type +question\n/).and.match(/Author +anonymous\n/);
      expect(tty.stderr).to.match(/Show it with: feedback show [0-9a-f-]{36}/);
    });

    it('when the title is empty (400), then it exits 2 with "Invalid input: title: Title is required"', async () => {
      const result = await run(['submit', '']);
      expect(result.code).to.equal(2);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.equal('feedback: Invalid input: title: Title is required\n');
    });

    it('when --type is not a FeedbackType, or --user-name comes without --user, then it exits 2', async () => {
      const type = await run(['submit', 'Typed', '--type', 'wish']);
      expect(type.code).to.equal(2);
      expect(type.stderr).to.match(/argument 'wish' is invalid\. Allowed choices are bug, idea, question, other/);
      const user = await run(['submit', 'Nameless', '--user-name', 'Ann']);
      expect(user.code).to.equal(2);
      expect(user.stderr).to.match(/give --user <externalId> too/);
    });
  });

  describe('list', () => {
    const tag = 'listtag';
    let ids: string[];
    before(async () => {
      ids = [];
      for (const [i, type] of (['idea', 'bug', 'idea', 'question', 'idea'] as const).entries()) {
        ids.push(await submit(`${tag} item ${i}`, '--type', type, '--description', `about ${tag}`));
      }
    });

    it('when --json is given, then stdout is the PaginatedResponse', async () => {
      const result = await run(['list', '--search', tag, '--limit', '2', '--page', '2', '--sort', 'oldest', '--json']);
      expect(result.code, result.stderr).to.equal(0);
      const page = JSON.parse(result.stdout) as { items: { id: string }[]; total: number; page: number; limit: number; totalPages: number };
      expect(page).to.include({ total: 5, page: 2, limit: 2, totalPages: 3 });
      expect(page.items.map((item) => item.id)).to.deep.equal([ids[2], ids[3]]);
    });

    it('when piped, then each item is one line: id, status, type, votes, comments, title', async () => {
      const result = await run(['list', '--search', tag, '--type', 'idea,question', '--status', 'new', '--sort', 'oldest']);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.equal('');
      expect(result.stdout).to.equal(
        [0, 2, 3, 4].map((i) => `${ids[i]}\tnew\t${i === 3 ? 'question' : 'idea'}\t1\t0\t${tag} item ${i}\n`).join(''),
      );
    });

    it('when stdout is a terminal, then it prints a table and the page position on stderr', async () => {
      const result = await run(['list', '--search', tag, '--limit', '2'], { tty: true });
      expect(result.code).to.equal(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).to.match(/^ID +STATUS +TYPE +VOTES +COMMENTS +CREATED +TITLE$/);
      expect(lines).to.have.length(3);
      expect(lines[1]).to.include(ids[4]!).and.include(`${tag} item 4`);
      expect(result.stderr).to.equal(`page 1 of 3, 5 items in all; next: feedback list --search ${tag} --limit 2 --url ${server.url} --page 2\n`);
      const none = await run(['list', '--search', 'no-such-text-anywhere'], { tty: true });
      expect(none.stdout).to.equal('No feedback matches.\n');
    });

    it('when --all is given, then it follows every page: lines piped, or one {items, total} document', async () => {
      const piped = await run(['list', '--all', '--limit', '2', '--search', tag, '--sort', 'oldest']);
      expect(piped.code, piped.stderr).to.equal(0);
      expect(piped.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).to.deep.equal(ids);
      const json = await run(['list', '--all', '--limit', '2', '--search', tag, '--json']);
      const body = JSON.parse(json.stdout) as { items: { id: string }[]; total: number };
      expect(body.total).to.equal(5);
      expect(body.items.map((item) => item.id)).to.deep.equal([...ids].reverse());
      const tty = await run(['list', '--all', '--limit', '2', '--search', tag], { tty: true });
      expect(tty.stdout.trimEnd().split('\n')).to.have.length(6);
      expect(tty.stderr).to.equal('5 items\n');
    });

    it('when a filter, --page or --limit is invalid, then it exits 2 before any request', async () => {
      const before = requestCount();
      const cases: [string[], RegExp][] = [
        [['--status', 'new,open'], /--status takes one or more of new, under-review, planned, in-progress, completed, closed separated by commas, not "open"/],
        [['--type', ','], /--type takes one or more of bug, idea, question, other separated by commas, not an empty list/],
        [['--sort', 'best'], /argument 'best' is invalid/],
        [['--page', '0'], /--page must be a whole number from 1 to/],
        [['--limit', 'ten'], /--limit must be a whole number from 1 to 100, not "ten"/],
        [['--limit', '101'], /--limit must be a whole number from 1 to 100/],
        [['--all', '--page', '2'], /option '--all' cannot be used with option '--page/],
      ];
      for (const [flags, message] of cases) {
        const result = await run(['list', ...flags]);
        expect(result.code, flags.join(' ')).to.equal(2);
        expect(result.stderr, flags.join(' ')).to.match(message);
      }
      expect(requestCount()).to.equal(before);
    });

    it('when the API options come before the command, then they work as after it', async () => {
      const result = await inProcess(['--json', '--url', server.url, '--api-key', server.apiKey, 'list', '--search', tag, '--limit', '1']);
      expect(result.code, result.stderr).to.equal(0);
      expect(JSON.parse(result.stdout)).to.include({ total: 5, limit: 1 });
      const misplaced = await inProcess(['--json', 'keys', 'list']);
      expect(misplaced.code).to.equal(2);
      // --json was typed, so the error itself is JSON.
      expect(JSON.parse(misplaced.stderr)).to.deep.equal({
        error: '--json only applies to identify, submit, list, similar, show, vote, status, comment, subscribe, unsubscribe, subscribers, merge, delete, login, whoami, webhooks, changelog, notifications, open, moderation, not to keys',
        exitCode: 2,
      });
    });
  });

  describe('show', () => {
    let id: string;
    before(async () => {
      id = await submit('Show me', '--description', 'First line\nSecond line', '--user', 'show-owner', '--user-name', 'Olga');
      const project = await projectId();
      expect(await addComment(server.server.orm.em.fork(), project, id, 'Thanks, we are on it', { kind: 'team', name: 'Support' })).to.equal(true);
      expect(await addComment(server.server.orm.em.fork(), project, id, 'Great\tnews', { kind: 'user', externalId: 'show-owner' })).to.equal(true);
    });

    it('when --json is given, then stdout is one {feedback} document with the comments', async () => {
      const result = await run(['show', id, '--user', 'show-owner', '--json']);
      expect(result.code, result.stderr).to.equal(0);
      const body = JSON.parse(result.stdout) as { feedback: { id: string; userHasVoted: boolean; comments: { content: string; author: unknown }[] } };
      expect(Object.keys(body)).to.deep.equal(['feedback']);
      expect(body.feedback).to.include({ id, userHasVoted: true });
      expect(body.feedback.comments.map((comment) => comment.content)).to.deep.equal(['Thanks, we are on it', 'Great\tnews']);
      expect(body.feedback.comments[0]!.author).to.deep.equal({ name: 'Support', isTeam: true });
    });

    it('when piped, then the item line comes first and then one line per comment', async () => {
      const result = await run(['show', id]);
      expect(result.code, result.stderr).to.equal(0);
      const lines = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
      expect(lines).to.have.length(3);
      expect(lines[0]).to.deep.equal([id, 'new', 'idea', '1', '2', 'Show me']);
      expect(lines[1]!.slice(2)).to.deep.equal(['Support', 'team', 'Thanks, we are on it']);
      expect(lines[2]!.slice(2)).to.deep.equal(['Olga', 'user', 'Great news']);
      expect(lines[1]![1]).to.match(/^\d{4}-\d{2}-\d{2}T/);
    });

    it('when stdout is a terminal, then it shows the fields, the description and each comment with its author', async () => {
      const result = await run(['show', id, '--user', 'show-owner'], { tty: true });
      expect(result.code, result.stderr).to.equal(0);
      const text = result.stdout;
      expect(text).to.match(/^Show me\n\n/);
      for (const pattern of [/Type +idea\n/, /Status +new\n/, /Votes +1 \(show-owner voted\)\n/, /Comments +2\n/, /Author +Olga\n/, /Created +\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n/]) {
        expect(text).to.match(pattern);
      }
      expect(text).to.include('  First line\n  Second line\n');
      expect(text).to.match(/Comments \(2\):\n\n {2}Support \(team\), \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n {4}Thanks, we are on it\n\n {2}Olga, .* UTC\n {4}Great\tnews\n$/);
    });

    it('when the id is unknown, then it exits 3 with "Feedback not found"', async () => {
      for (const unknown of [UNKNOWN_ID, 'not-an-id']) {
        const result = await run(['show', unknown]);
        expect(result.code).to.equal(3);
        expect(result.stdout).to.equal('');
        expect(result.stderr).to.equal('feedback: Feedback not found\n');
      }
    });
  });

  describe('vote', () => {
    let id: string;
    before(async () => {
      id = await submit('Vote on me', '--user', 'vote-owner');
    });

    it('when a user votes twice, then the vote is added and taken back; --check only reports', async () => {
      expect((await run(['vote', id, '--user', 'voter-1'])).stdout).to.equal('voted\t2\n');
      expect((await run(['vote', id, '--user', 'voter-1', '--check'])).stdout).to.equal('voted\t2\n');
      expect((await run(['vote', id, '--user', 'voter-1'])).stdout).to.equal('not-voted\t1\n');
      expect((await run(['vote', id, '--user', 'voter-1', '--check'])).stdout).to.equal('not-voted\t1\n');
      expect((await run(['vote', id, '--user', 'vote-owner', '--check'])).stdout).to.equal('voted\t1\n');
    });

    it('when --json is given, then stdout is the VoteResult', async () => {
      const toggled = await run(['vote', id, '--user', 'voter-2', '--json']);
      expect(JSON.parse(toggled.stdout)).to.deep.equal({ voted: true, voteCount: 2 });
      const checked = await run(['vote', id, '--user', 'voter-2', '--check', '--json']);
      expect(JSON.parse(checked.stdout)).to.deep.equal({ voted: true, voteCount: 2 });
      const back = await run(['vote', id, '--user', 'voter-2', '--json']);
      expect(JSON.parse(back.stdout)).to.deep.equal({ voted: false, voteCount: 1 });
    });

    it('when stdout is a terminal, then it says who voted and the count, also for an anonymous vote', async () => {
      expect((await run(['vote', id, '--user', 'voter-3'], { tty: true })).stdout).to.equal(`voter-3 voted for ${id}; it now has 2 votes.\n`);
      expect((await run(['vote', id, '--user', 'voter-3', '--check'], { tty: true })).stdout).to.equal(`voter-3 has voted for ${id}; it has 2 votes.\n`);
      expect((await run(['vote', id, '--user', 'voter-3'], { tty: true })).stdout).to.equal(`Removed the vote of voter-3 on ${id}; it now has 1 vote.\n`);
      expect((await run(['vote', id], { tty: true })).stdout).to.equal(`Voted for ${id} anonymously (by IP address); it now has 2 votes.\n`);
      expect((await run(['vote', id, '--check'], { tty: true })).stdout).to.equal(`You have voted for ${id} (anonymously, by IP address); it has 2 votes.\n`);
      expect((await run(['vote', id], { tty: true })).stdout).to.equal(`Removed your anonymous vote on ${id}; it now has 1 vote.\n`);
    });

    it('when the id is unknown, then toggling and checking exit 3', async () => {
      expect((await run(['vote', UNKNOWN_ID, '--user', 'voter-1'])).code).to.equal(3);
      expect((await run(['vote', UNKNOWN_ID, '--check'])).code).to.equal(3);
    });
  });

  describe('the real binary, end to end', () => {
    it('exit 0: submit, show and vote with FEEDBACK_URL and FEEDBACK_API_KEY from the environment', async () => {
      const submitted = await feedback(['submit', 'Spawned', '--user', 'spawn-1'], env);
      expect(submitted.code, submitted.stderr).to.equal(0);
      const id = submitted.stdout.trim();
      const shown = await feedback(['show', id, '--json'], env);
      expect(shown.code, shown.stderr).to.equal(0);
      expect((JSON.parse(shown.stdout) as { feedback: { title: string } }).feedback.title).to.equal('Spawned');
      const voted = await feedback(['--json', 'vote', id, '--user', 'spawn-2'], env);
      expect(JSON.parse(voted.stdout)).to.deep.equal({ voted: true, voteCount: 2 });
    });

    it('exit 1: nothing listens at --url', async () => {
      const url = `http://127.0.0.1:${await closedPort()}`;
      const result = await feedback(['list', '--url', url, '--api-key', server.apiKey]);
      expect(result.code).to.equal(1);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.equal(
        `feedback: could not reach the server at ${url} (connection failed: connect ECONNREFUSED ${url.slice('http://'.length)}); is it running? Set the address with --url or FEEDBACK_URL\n`,
      );
    });

    it('exit 2: no API key, or an address that is not http(s)', async () => {
      const noKey = await feedback(['list', '--url', server.url]);
      expect(noKey.code).to.equal(2);
      expect(noKey.stderr).to.equal('feedback: no API key: pass --api-key, set FEEDBACK_API_KEY or run `feedback login` (`feedback keys create` makes one)\n');
      const badUrl = await inProcess(['list', '--url', 'ftp://example.com', '--api-key', server.apiKey]);
      expect(badUrl.code, badUrl.stderr).to.equal(2);
      expect(badUrl.stderr).to.match(/--url must be an http:\/\/ or https:\/\/ address/);
    });

    it('exit 3: an unknown id', async () => {
      const result = await feedback(['show', UNKNOWN_ID], env);
      expect(result.code).to.equal(3);
      expect(result.stderr).to.equal('feedback: Feedback not found\n');
    });

    it('exit 4: a key the server does not know', async () => {
      const result = await feedback(['list'], { ...env, FEEDBACK_API_KEY: 'pk_notARealKey000000000000000000000000000' });
      expect(result.code).to.equal(4);
      expect(result.stderr).to.equal(`feedback: Invalid API key (the server at ${server.url} refused the key; check --api-key or FEEDBACK_API_KEY)\n`);
    });

    it('the README script identifies, submits, lists, votes twice and reads the item back', async () => {
      // `npx --no-install feedback` runs this checkout's binary; any other npx call fails the script.
      const prelude = 'npx() { [ "$1" = --no-install ] && [ "$2" = feedback ] || return 127; shift 2; "$FEEDBACK_NODE" "$FEEDBACK_BIN" "$@"; }\n';
      const result = await spawnRun('sh', ['-c', prelude + readmeScript()], { ...env, FEEDBACK_NODE: process.execPath, FEEDBACK_BIN: BIN });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.equal('');
      const lines = result.stdout.trimEnd().split('\n');
      const id = /^submitted ([0-9a-f-]{36})$/.exec(lines[0]!)?.[1];
      expect(id, lines[0]).to.be.a('string');
      expect(lines.slice(1)).to.deep.equal([
        `${id}\tnew\tidea\t1\t0\tExport to CSV`,
        'first vote: voted, count 2',
        'second vote: not-voted, count 1',
        'Export to CSV: new, idea, 1 vote(s), 0 comment(s)',
      ]);
    });
  });

  describe('a server that fails', () => {
    let stub: Server;
    let url: string;
    before(async () => {
      // Not the feedback server: a 500 with a request id on /api/v1/feedback, a 200 that is not JSON elsewhere.
      stub = createHttpServer((req, res) => {
        if (req.url?.startsWith('/api/v1/feedback?') || req.url === '/api/v1/feedback') {
          res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': 'req-123' }).end('{"error":"Internal server error"}');
        } else {
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
        }
      });
      await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => stub.close(() => resolve())));

    it('exit 1: a 5xx names the status and the request id; a reply that is not the API names the operation', async () => {
      const failed = await inProcess(['list', '--url', url, '--api-key', 'pk_x', '--retries', '0']);
      expect(failed.code).to.equal(1);
      expect(failed.stderr).to.equal('feedback: Internal server error (HTTP 500, request id req-123)\n');
      const odd = await inProcess(['show', UNKNOWN_ID, '--url', url, '--api-key', 'pk_x', '--retries', '0']);
      expect(odd.code).to.equal(1);
      expect(odd.stderr).to.match(new RegExp(`^feedback: unexpected response from ${url}: feedback\\.get .*not JSON`));
    });
  });

  describe('rate limit', () => {
    const limited = withServer(embeddedBackend, { rateLimit: 1 });

    it('exit 5: the key has spent its requests and --retries is 0', async () => {
      const args = ['--url', limited.url, '--api-key', limited.apiKey, '--retries', '0'];
      expect((await inProcess(['list', ...args])).code).to.equal(0);
      const result = await inProcess(['list', ...args]);
      expect(result.code).to.equal(5);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.match(/^feedback: Too many requests, please slow down \(rate limited by the server; try again in \d+ s\)\n$/);
    });

    it('when --retries is not a whole number from 0 to 10, then it exits 2', async () => {
      const result = await inProcess(['list', '--url', limited.url, '--api-key', limited.apiKey, '--retries', 'many']);
      expect(result.code).to.equal(2);
      expect(result.stderr).to.match(/--retries must be a whole number from 0 to 10, not "many"/);
    });
  });
});
