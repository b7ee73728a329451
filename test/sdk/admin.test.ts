import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import {
  BadRequestError,
  FeedbackApiError,
  FeedbackClient,
  NotFoundError,
  PermissionDeniedError,
} from '@feedbackd/sdk';
import { rejection } from '../helpers/assertions.js';
import { backends } from '../helpers/backends.js';
import { png } from '../helpers/images.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * A proxy to `target` that loses the response of the first request matching `lose`: the request
 * reaches the server and runs, but the client's socket is destroyed before it hears the answer.
 */
async function lossyProxy(target: string, lose: (method: string, url: string) => boolean): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  let lost = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      seen.push(`${req.method} ${req.headers['idempotency-key'] ?? '-'}`);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const upstream = await fetch(target + req.url, { method: req.method, headers, body });
      const text = await upstream.text();
      if (!lost && lose(req.method ?? '', req.url ?? '')) {
        lost = true;
        req.socket.destroy();
        return;
      }
      res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** client.admin against the real server (issue 9 §2). */
for (const backend of backends()) {
  describe(`SDK client.admin against the real server (${backend.name})`, () => {
    let server: TestServer;
    let publicClient: FeedbackClient;
    let admin: FeedbackClient;
    let secretKey: string;
    before(async () => {
      server = await startTestServer(backend);
      secretKey = await server.newKey(undefined, 'secret');
      publicClient = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey });
      admin = new FeedbackClient({ baseUrl: server.url, apiKey: secretKey });
    });
    after(async () => {
      await publicClient?.close();
      await admin?.close();
      await server?.close();
    });

    it('when a secret key answers as the team and moves the item to planned, then the public detail shows the team comment and the new status', async () => {
      const item = await publicClient.feedback.create({ title: 'Export to CSV', endUser: { externalId: 'sdk-alice' } });
      const { comment, commentCount } = await admin.admin.addComment(item.id, { content: 'Planned for March.', team: { name: 'Support' } });
      expect(commentCount).to.equal(1);
      expect(comment.author).to.deep.equal({ name: 'Support', isTeam: true });
      const updated = await admin.admin.update(item.id, { status: 'planned', actor: 'Ada' });
      expect(updated.status).to.equal('planned');
      expect(updated.statusHistory?.map((change) => [change.from, change.to, change.actor])).to.deep.equal([['new', 'planned', 'Ada']]);

      const shown = await publicClient.feedback.get(item.id);
      expect(shown).to.include({ status: 'planned', commentCount: 1 });
      expect(shown.statusHistory).to.equal(undefined);
      expect(shown.comments).to.deep.equal([comment]);
      // The same read with the secret key carries the history.
      expect((await admin.feedback.get(item.id)).statusHistory).to.have.length(1);
    });

    it('when comments are added and deleted, items merged and deleted, then each method returns its typed answer', async () => {
      const original = await publicClient.feedback.create({ title: 'Dark mode', endUser: { externalId: 'sdk-a' } });
      const duplicate = await publicClient.feedback.create({ title: 'Dark theme', endUser: { externalId: 'sdk-b' } });
      const byUser = await admin.admin.addComment(duplicate.id, { content: 'Please!', endUser: { externalId: 'sdk-b', name: 'Bea' } });
      // The spec's author, then the end user's externalId (issue 39: author.id).
      expect(byUser.comment.author).to.deep.equal({ name: 'Bea', avatarUrl: null, id: 'sdk-b' });
      const extra = await admin.admin.addComment(duplicate.id, { content: 'Typo', team: { name: 'Support' } });
      expect(await admin.admin.deleteComment(duplicate.id, extra.comment.id)).to.deep.equal({ id: extra.comment.id, deleted: true, commentCount: 1, repliesDeleted: 0 });

      const { feedback, merged } = await admin.admin.merge(duplicate.id, original.id);
      expect(merged).to.deep.equal({ id: duplicate.id, votesMoved: 1, commentsMoved: 1 });
      expect(feedback).to.include({ id: original.id, voteCount: 2, commentCount: 1 });
      expect(await rejection(publicClient.feedback.get(duplicate.id))).to.be.instanceOf(NotFoundError);

      expect(await admin.admin.delete(original.id)).to.deep.equal({ id: original.id, deleted: true });
      const again = await rejection(admin.admin.delete(original.id));
      expect(again).to.be.instanceOf(NotFoundError);
      expect((again as NotFoundError).message).to.equal('Feedback not found');
    });

    it('when a public key calls client.admin, then PermissionDeniedError (403), once, not retried', async () => {
      const item = await publicClient.feedback.create({ title: 'Not yours to change' });
      const before = server.logs.filter((line) => line.includes('"status":403')).length;
      const error = await rejection(publicClient.admin.update(item.id, { status: 'closed' }));
      expect(error).to.be.instanceOf(PermissionDeniedError).and.instanceOf(FeedbackApiError);
      expect(error).to.include({ status: 403, message: 'This operation requires a secret key' });
      expect(server.logs.filter((line) => line.includes('"status":403')).length - before).to.equal(1);
      const calls = [() => publicClient.admin.delete(item.id), () => publicClient.admin.merge(item.id, UNKNOWN_ID), () => publicClient.admin.deleteComment(item.id, UNKNOWN_ID)];
      for (const call of calls) expect(await rejection(call())).to.be.instanceOf(PermissionDeniedError);
    });

    it('when the board\'s brand is set and cleared through client.admin, then board() reads it back, and a pale accent is BadRequestError with the ratio', async () => {
      const logo = png(48, 16).toString('base64');
      const set = await admin.admin.updateBoard({ name: 'SDK Co', description: 'Ideas welcome', accent: '#0b5cad', defaultSort: 'votes', logo });
      expect(set).to.deep.include({ name: 'SDK Co', description: 'Ideas welcome', accent: '#0b5cad', defaultSort: 'votes' });
      expect(set.logo).to.include({ type: 'image/png', width: 48, height: 16 });
      expect(await admin.admin.board()).to.deep.equal(set);
      const pale = await rejection(admin.admin.updateBoard({ accent: '#9cf' }));
      expect(pale).to.be.instanceOf(BadRequestError);
      expect((pale as BadRequestError).details?.fieldErrors.accent?.[0]).to.match(/contrast of 1\.\d\d:1/);
      const cleared = await admin.admin.updateBoard({ description: null, accent: null, defaultSort: null, logo: null });
      expect(cleared).to.deep.include({ name: 'SDK Co', description: null, accent: null, darkAccent: null, defaultSort: null, logo: null });
      expect(await rejection(publicClient.admin.board())).to.be.instanceOf(PermissionDeniedError);
    });

    it('when the input is invalid or a comment is unknown, then BadRequestError with field details, or NotFoundError "Comment not found"', async () => {
      const item = await publicClient.feedback.create({ title: 'Validated' });
      const bad = await rejection(admin.admin.update(item.id, { status: 'shipped' as never }));
      expect(bad).to.be.instanceOf(BadRequestError);
      expect((bad as BadRequestError).details?.fieldErrors.status).to.deep.equal(['Status must be one of: new, under-review, planned, in-progress, completed, closed']);
      const itself = await rejection(admin.admin.merge(item.id, item.id));
      expect((itself as BadRequestError).details?.fieldErrors).to.deep.equal({ intoId: ['intoId must be another item than the one merged'] });
      const missing = await rejection(admin.admin.deleteComment(item.id, UNKNOWN_ID));
      expect(missing).to.be.instanceOf(NotFoundError);
      expect((missing as NotFoundError).message).to.equal('Comment not found');
    });

    it('when the response of a DELETE is lost, then the SDK retries with the same Idempotency-Key and gets the first answer, not a 404', async () => {
      const item = await publicClient.feedback.create({ title: 'Deleted once, answered twice' });
      const proxy = await lossyProxy(server.url, (method) => method === 'DELETE');
      const viaProxy = new FeedbackClient({ baseUrl: proxy.url, apiKey: secretKey, maxRetryDelayMs: 50 });
      try {
        expect(await viaProxy.admin.delete(item.id)).to.deep.equal({ id: item.id, deleted: true });
        expect(proxy.seen).to.have.length(2);
        const [first, second] = proxy.seen;
        expect(first).to.match(/^DELETE [0-9a-f-]{36}$/);
        expect(second, 'the retry carries the same key').to.equal(first);
        expect(await rejection(publicClient.feedback.get(item.id))).to.be.instanceOf(NotFoundError);
      } finally {
        await viaProxy.close();
        await proxy.close();
      }
    });
  });
}
