import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { endUserToken, identitySecretOf } from '../helpers/end-user-token.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';

/** `feedback comment` and `feedback delete --comment` for the conversation (issue 39): end users with a public key, the team's notes, pins and replies. */
for (const backend of backends()) {
  describe(`feedback CLI: comments (${backend.name})`, () => {
    let server: TestServer;
    let secretKey: string;
    const run = (args: string[], options: { tty?: boolean; key?: string } = {}) => inProcess([...args, '--url', server.url, '--api-key', options.key ?? server.apiKey], options);

    before(async () => {
      server = await startTestServer(backend);
      secretKey = await server.newKey(undefined, 'secret');
    });
    after(async () => server?.close());

    const submit = async () => (await request(server, 'POST', '/api/v1/feedback', { body: { title: 'Talk in the terminal' } })).body.feedback.id as string;

    it('when an end user comments and replies with a public key, then the ids print piped, the sentence on a terminal, and --json prints the answer', async () => {
      const id = await submit();
      const first = await run(['comment', id, 'Same here', '--user', 'cli-ann']);
      expect(first.code, first.stderr).to.equal(0);
      const commentId = first.stdout.trim();
      expect(commentId).to.match(/^[0-9a-f-]{36}$/);
      const reply = await run(['comment', id, 'And me', '--user', 'cli-bob', '--reply-to', commentId, '--json']);
      expect(reply.code, reply.stderr).to.equal(0);
      const answer = JSON.parse(reply.stdout);
      expect(answer).to.deep.include({ commentCount: 2 });
      expect(answer.comment).to.include({ content: 'And me', parentId: commentId });
      const told = await run(['comment', id, 'Me three', '--user', 'cli-cy', '--reply-to', commentId], { tty: true });
      expect(told.stdout).to.match(new RegExp(`^Commented on ${id} as cli-cy \\(a reply\\); it now has 3 comments\\. Comment id: [0-9a-f-]{36}\\n$`));
    });

    it('when the team pins an answer and writes an internal note with a secret key, then the public detail shows the pin first and not the note', async () => {
      const id = await submit();
      await run(['comment', id, 'Question', '--user', 'cli-ann']);
      const pinned = await run(['comment', id, 'Shipped in 2.4', '--team', 'Support', '--pin'], { key: secretKey, tty: true });
      expect(pinned.stdout).to.match(/as Support \(team\) \(pinned\); it now has 2 comments/);
      const note = await run(['comment', id, 'Big customer', '--internal', '--json'], { key: secretKey });
      expect(JSON.parse(note.stdout)).to.deep.include({ commentCount: 2 });
      expect(JSON.parse(note.stdout).comment.internal).to.equal(true);
      const detail = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
      expect(detail.comments.map((c: { content: string }) => c.content)).to.deep.equal(['Shipped in 2.4', 'Question']);
    });

    it('when flags do not fit together or the key cannot do it, then exit 2 before any request, or 4 with the server\'s reason', async () => {
      const id = await submit();
      expect((await run(['comment', id, 'x', '--user', 'u', '--internal'])).code, '--internal with --user').to.equal(2);
      expect((await run(['comment', id, 'x', '--internal', '--pin'], { key: secretKey })).code, '--pin with --internal').to.equal(2);
      expect((await run(['comment', id, 'x', '--user', 'u', '--reply-to', 'nope'])).code, 'a malformed --reply-to').to.equal(2);
      const pin = await run(['comment', id, 'x', '--pin']);
      expect(pin.code).to.equal(4);
      expect(pin.stderr).to.include('Team comments, internal notes and pins require a secret key');
    });

    it('when an author deletes their comment with --user and --user-token, then it goes; once the team has replied, exit 4 with the reason and no secret-key hint', async () => {
      const id = await submit();
      const identity = await identitySecretOf(server);
      const mine = (await run(['comment', id, 'Oops', '--user', 'cli-ann'])).stdout.trim();
      const deleted = await run(['delete', id, '--comment', mine, '--user', 'cli-ann', '--user-token', endUserToken(identity, 'cli-ann')], { tty: true });
      expect(deleted.code, deleted.stderr).to.equal(0);
      expect(deleted.stdout).to.equal(`Deleted comment ${mine} of ${id}; it now has 0 comments.\n`);
      const kept = (await run(['comment', id, 'Help', '--user', 'cli-ann'])).stdout.trim();
      await run(['comment', id, 'On it', '--team', 'Support', '--reply-to', kept], { key: secretKey });
      const refused = await run(['delete', id, '--comment', kept, '--user', 'cli-ann', '--user-token', endUserToken(identity, 'cli-ann')]);
      expect(refused.code).to.equal(4);
      expect(refused.stderr).to.equal('feedback: The team has replied to this comment: it can no longer be edited or deleted\n');
      expect((await run(['delete', id, '--user', 'cli-ann'])).code, '--user without --comment').to.equal(2);
      expect((await run(['delete', id, '--user-token', endUserToken(identity, 'cli-ann')])).code, '--user-token without --comment').to.equal(2);
      const all = await run(['delete', id, '--comment', kept, '--json'], { key: secretKey });
      expect(JSON.parse(all.stdout)).to.deep.equal({ id: kept, deleted: true, repliesDeleted: 1, commentCount: 0 });
    });

    it('when a public key deletes an end user\'s comment with --user alone (the id every comment publishes), then exit 4 with the reason and the comment stays', async () => {
      const id = await submit();
      const theirs = (await run(['comment', id, 'Not yours', '--user', 'cli-dee'])).stdout.trim();
      const refused = await run(['delete', id, '--comment', theirs, '--user', 'cli-dee']);
      expect(refused.code).to.equal(4);
      expect(refused.stderr).to.equal("feedback: A public key changes an end user's comment only with their signed token in the X-Feedback-User-Token header (or use a secret key)\n");
      const detail = (await request(server, 'GET', `/api/v1/feedback/${id}`)).body.feedback;
      expect(detail.comments.map((c: { id: string }) => c.id)).to.deep.equal([theirs]);
    });
  });
}
