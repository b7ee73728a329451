import { expect } from 'chai';
import { BadRequestError, FeedbackClient, NotFoundError, PermissionDeniedError } from '@feedbackd/sdk';
import { rejection } from '../helpers/assertions.js';
import { backends } from '../helpers/backends.js';
import { endUserToken, identitySecretOf } from '../helpers/end-user-token.js';
import { request, withServer } from '../helpers/test-server.js';

/** `client.comments` (issue 39) against a real server: every method, and its errors as the SDK's classes. */
for (const backend of backends()) {
  describe(`SDK client.comments (${backend.name})`, () => {
    const server = withServer(backend);
    let site: FeedbackClient;
    let team: FeedbackClient;
    let identity: string;
    before(async () => {
      site = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
      team = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(undefined, 'secret'), maxRetries: 0 });
      identity = await identitySecretOf(server);
    });
    after(async () => {
      await site?.close();
      await team?.close();
    });

    it('when an end user creates, lists, updates and deletes a comment, then each method answers the contract and the team reads the history', async () => {
      const item = await site.feedback.create({ title: 'SDK conversation' });
      const { comment, commentCount } = await site.comments.create(item.id, { content: 'Hello', endUser: { externalId: 'sdk-ann', name: 'Ann' } });
      expect(commentCount).to.equal(1);
      expect(comment.author).to.deep.equal({ name: 'Ann', avatarUrl: null, id: 'sdk-ann' });
      const reply = await team.comments.create(item.id, { content: 'Hi Ann', team: { name: 'Support' }, parentId: comment.id });
      expect(reply.comment.parentId).to.equal(comment.id);
      expect((await site.comments.list(item.id)).map((c) => c.id)).to.deep.equal([comment.id, reply.comment.id]);

      const edited = await team.comments.update(item.id, reply.comment.id, { content: 'Hi Ann!' });
      expect(edited.content).to.equal('Hi Ann!');
      const history = await team.comments.history(item.id, reply.comment.id);
      expect(history.revisions.map((r) => r.content)).to.deep.equal(['Hi Ann']);

      const removed = await site.comments.delete(item.id, reply.comment.id, { endUserId: 'sdk-ann', userToken: endUserToken(identity, 'sdk-ann') }).catch((error: unknown) => error);
      expect(removed, 'not the author').to.be.instanceOf(PermissionDeniedError);
      const gone = await team.comments.delete(item.id, comment.id);
      expect(gone).to.deep.equal({ id: comment.id, deleted: true, repliesDeleted: 1, commentCount: 0 });
      expect(await site.comments.list(item.id)).to.deep.equal([]);
    });

    it("when an end user edits and deletes their own comment with a public key, then userToken proves them (one per call); without it, or with the published id alone, PermissionDeniedError", async () => {
      const item = await site.feedback.create({ title: 'SDK author proof' });
      const { comment } = await site.comments.create(item.id, { content: 'Mine', endUser: { externalId: 'sdk-bo' } });
      const unproved = await rejection(site.comments.update(item.id, comment.id, { content: 'Hijacked', endUserId: 'sdk-bo' }));
      expect(unproved).to.be.instanceOf(PermissionDeniedError);
      expect((unproved as PermissionDeniedError).message).to.include('signed token in the X-Feedback-User-Token header');
      const edited = await site.comments.update(item.id, comment.id, { content: 'Mine, edited', endUserId: 'sdk-bo', userToken: endUserToken(identity, 'sdk-bo') });
      expect(edited).to.include({ id: comment.id, content: 'Mine, edited' }).and.not.have.property('held');
      expect(await rejection(site.comments.delete(item.id, comment.id, { endUserId: 'sdk-bo' }))).to.be.instanceOf(PermissionDeniedError);
      const gone = await site.comments.delete(item.id, comment.id, { userToken: endUserToken(identity, 'sdk-bo') });
      expect(gone).to.include({ id: comment.id, deleted: true });
    });

    it("when the project holds an end user's edit, then update answers the comment as it still reads, with held", async () => {
      // A project of its own that holds links, set before its public key is first used (the key cache then holds the setting).
      const teamCaller = { url: server.url, apiKey: await server.newKey('sdk-held', 'secret') };
      expect((await request(teamCaller, 'PATCH', '/api/v1/board', { body: { moderationHoldLinks: true } })).status).to.equal(200);
      const secret = await identitySecretOf(server, 'sdk-held');
      const held = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey('sdk-held', 'public'), maxRetries: 0 });
      try {
        const item = await held.feedback.create({ title: 'SDK held edit' });
        const { comment } = await held.comments.create(item.id, { content: 'Plain words', endUser: { externalId: 'sdk-cy' } });
        const edited = await held.comments.update(item.id, comment.id, { content: 'See https://example.com', userToken: endUserToken(secret, 'sdk-cy', 'sdk-held') });
        expect(edited).to.deep.include({ id: comment.id, content: 'Plain words', held: { reason: 'link' } });
        expect((await held.comments.list(item.id)).map((c) => c.content)).to.deep.equal(['Plain words']);
      } finally {
        await held.close();
      }
    });

    it('when the input is bad, the item unknown or the key a public one for a team action, then BadRequestError, NotFoundError and PermissionDeniedError', async () => {
      const item = await site.feedback.create({ title: 'SDK errors' });
      const tooLong = await rejection(site.comments.create(item.id, { content: 'x'.repeat(4001), endUser: { externalId: 'sdk-ann' } }));
      expect(tooLong).to.be.instanceOf(BadRequestError);
      expect((tooLong as BadRequestError).details?.fieldErrors.content).to.deep.equal(['Content must be at most 4000 characters']);
      expect(await rejection(site.comments.list('00000000-0000-4000-8000-000000000000'))).to.be.instanceOf(NotFoundError);
      expect(await rejection(site.comments.create(item.id, { content: 'x', team: { name: 'Us' } }))).to.be.instanceOf(PermissionDeniedError);
      expect(await rejection(site.comments.history(item.id, '00000000-0000-4000-8000-000000000000'))).to.be.instanceOf(PermissionDeniedError);
    });
  });
}
