import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { inProcess, runFeedback } from '../helpers/cli-process.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** `feedback keys create --secret`, the operator commands, their output modes and exit codes (issue 9 §2). */
for (const backend of backends()) {
  describe(`feedback CLI: keys create --secret, status, comment, merge, delete (${backend.name})`, () => {
    let server: TestServer;
    let secretKey: string;
    /** Runs against the test server with the secret key (or `key`), the API options after the command. */
    const run = (args: string[], options: { tty?: boolean; key?: string } = {}) =>
      inProcess([...args, '--url', server.url, '--api-key', options.key ?? secretKey], options);

    before(async () => {
      server = await startTestServer(backend);
      const location = server.database.location.databaseUrl ? ['--database-url', server.database.location.databaseUrl] : ['--data-dir', server.database.location.dataDir];
      const created = await inProcess(['keys', 'create', '--secret', '--name', 'ops', '--json', ...location]);
      expect(created.code, created.stderr).to.equal(0);
      const printed = JSON.parse(created.stdout);
      expect(printed).to.include({ kind: 'secret', name: 'ops' });
      expect(printed.key).to.match(/^sk_[0-9A-Za-z]{40}$/);
      secretKey = printed.key;
    });
    after(async () => server?.close());

    async function submit(title: string): Promise<string> {
      const result = await run(['submit', title], { key: server.apiKey });
      expect(result.code, result.stderr).to.equal(0);
      return result.stdout.trim();
    }

    it('when the team comments and the item moves to planned with a secret key, then a public key shows the team comment and the new status', async () => {
      const id = await submit('Export to CSV');
      const comment = await run(['comment', id, 'Planned for the March release.', '--team', 'Support', '--json']);
      expect(comment.code, comment.stderr).to.equal(0);
      expect(JSON.parse(comment.stdout)).to.deep.include({ commentCount: 1 });
      const status = await run(['status', id, 'planned', '--actor', 'Ada', '--json']);
      expect(status.code, status.stderr).to.equal(0);
      expect(JSON.parse(status.stdout).feedback.statusHistory).to.have.length(1);

      const shown = await run(['show', id, '--json'], { key: server.apiKey });
      expect(shown.code).to.equal(0);
      const { feedback } = JSON.parse(shown.stdout);
      expect(feedback.status).to.equal('planned');
      expect(feedback).to.not.have.property('statusHistory');
      expect(feedback.comments).to.have.length(1);
      expect(feedback.comments[0]).to.deep.include({ content: 'Planned for the March release.', author: { name: 'Support', isTeam: true } });
    });

    it('when the commands are piped or on a terminal, then they print a line for scripts or a sentence for people', async () => {
      const id = await submit('Dark mode');
      const status = await run(['status', id, 'under-review']);
      expect(status.stdout).to.equal(`${id}\tunder-review\tidea\t1\t0\tDark mode\n`);
      expect((await run(['status', id, 'in-progress'], { tty: true })).stdout).to.equal(`${id} is now in-progress: Dark mode\n`);
      const piped = await run(['comment', id, 'Me too', '--user', 'cli-user']);
      const commentId = piped.stdout.trim();
      expect(commentId).to.match(/^[0-9a-f-]{36}$/);
      const told = await run(['comment', id, 'On it'], { tty: true });
      expect(told.stdout).to.match(new RegExp(`^Commented on ${id} as Team \\(team\\); it now has 2 comments\\. Comment id: [0-9a-f-]{36}\\n$`));
      expect((await run(['delete', id, '--comment', commentId])).stdout).to.equal(`${commentId}\n`);
      expect((await run(['delete', id, '--comment', commentId])).code, 'a comment deleted twice').to.equal(3);

      // Both anonymous submissions are the same voter (this machine's IP): the vote is not counted twice.
      const duplicate = await submit('Dark theme');
      const merged = await run(['merge', duplicate, id], { tty: true });
      expect(merged.stdout).to.equal(`Merged ${duplicate} into ${id}: 0 votes and 0 comments moved; it now has 1 vote and 1 comment.\n`);
      expect((await run(['show', duplicate], { key: server.apiKey })).code).to.equal(3);

      expect((await run(['delete', id], { tty: true })).stdout).to.equal(`Deleted ${id}.\n`);
      const again = await run(['delete', id]);
      expect(again.code).to.equal(3);
      expect(again.stderr).to.equal('feedback: Feedback not found\n');
    });

    it('when merge and delete print --json, then it is the API response', async () => {
      const [a, b] = [await submit('Merge A'), await submit('Merge B')];
      await run(['vote', a, '--user', 'merge-voter'], { key: server.apiKey });
      const merged = JSON.parse((await run(['merge', a, b, '--json'])).stdout);
      expect(merged.merged).to.deep.equal({ id: a, votesMoved: 1, commentsMoved: 0 });
      expect(merged.feedback).to.include({ id: b, voteCount: 2 });
      expect(JSON.parse((await run(['delete', b, '--json'])).stdout)).to.deep.equal({ id: b, deleted: true });
    });

    it('when a public key runs an operator command, then exit 4 with the 403 text and how to get a secret key', async () => {
      const id = await submit('Public key tries');
      for (const args of [['status', id, 'closed'], ['merge', id, UNKNOWN_ID], ['delete', id], ['delete', id, '--comment', UNKNOWN_ID]]) {
        const result = await run(args, { key: server.apiKey });
        expect(result.code, args.join(' ')).to.equal(4);
        expect(result.stderr).to.equal('feedback: This operation requires a secret key (this command needs a secret key: `feedback keys create --secret` makes one)\n');
      }
      // A public key comments as an end user (--user); the team's comment (the default) is a secret key's.
      const teamComment = await run(['comment', id, 'x'], { key: server.apiKey });
      expect(teamComment.code).to.equal(4);
      expect(teamComment.stderr).to.equal('feedback: Team comments, internal notes and pins require a secret key (this command needs a secret key: `feedback keys create --secret` makes one)\n');
      // The real binary exits with the same code.
      const spawned = await runFeedback(['status', id, 'closed'], { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: server.apiKey });
      expect(spawned.code).to.equal(4);
    });

    it('when the input is wrong, then exit 2 before or from the server, and 3 for an unknown item', async () => {
      const id = await submit('Wrong input');
      const badStatus = await run(['status', id, 'shipped']);
      expect(badStatus.code).to.equal(2);
      expect(badStatus.stderr).to.include("'shipped' is invalid");
      expect((await run(['comment', id, 'x', '--team', 'T', '--user', 'u'])).code, '--team with --user').to.equal(2);
      const empty = await run(['comment', id, '   ']);
      expect(empty.code).to.equal(2);
      expect(empty.stderr).to.equal('feedback: Invalid input: content: Content is required\n');
      const itself = await run(['merge', id, id]);
      expect(itself.code).to.equal(2);
      expect(itself.stderr).to.equal('feedback: Invalid input: intoId: intoId must be another item than the one merged\n');
      expect((await run(['delete', ''])).code).to.equal(2);
      for (const args of [['status', UNKNOWN_ID, 'closed'], ['comment', UNKNOWN_ID, 'x'], ['merge', UNKNOWN_ID, id], ['delete', UNKNOWN_ID]]) {
        const result = await run(args);
        expect(result.code, args.join(' ')).to.equal(3);
        expect(result.stderr).to.equal('feedback: Feedback not found\n');
      }
    });

    it('when --help is asked, then the operator commands and the 403 exit code are listed', async () => {
      const top = await inProcess(['--help']);
      for (const text of ['status', 'comment', 'merge', 'delete', 'HTTP 403']) expect(top.stdout).to.include(text);
      const keys = await inProcess(['keys', 'create', '--help']);
      expect(keys.stdout).to.include('--secret');
    });
  });
}

describe('feedback keys --help', () => {
  it('regression (issue 24, create described as minting a public key): when keys --help is asked, then create says public by default and secret with --secret', async () => {
    for (const args of [['keys', '--help'], ['keys', 'create', '--help']]) {
      const help = (await inProcess(args)).stdout.replace(/\s+/g, ' ');
      expect(help, args.join(' ')).to.include('Mint an API key: public (pk_) by default, secret (sk_) with --secret');
      expect(help, args.join(' ')).not.to.include('Mint a public API key');
    }
  });
});
