import { expect } from 'chai';
import { BadRequestError, FeedbackClient, NotFoundError, PermissionDeniedError } from '@feedbackd/sdk';
import { rejection } from '../helpers/assertions.js';
import { backends } from '../helpers/backends.js';
import { withServer } from '../helpers/test-server.js';

/** `client.moderation` and the held answers of `feedback.create` and `comments.create` (docs/moderation.md) against a real server. */
for (const backend of backends()) {
  describe(`SDK client.moderation (${backend.name})`, () => {
    const server = withServer(backend);
    let site: FeedbackClient;
    let team: FeedbackClient;
    before(async () => {
      team = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey('sdk-moderation', 'secret'), maxRetries: 0 });
      await team.admin.updateBoard({ moderation: 'all' });
      // A key first used after the change: its cached project holds the setting.
      site = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey('sdk-moderation', 'public'), maxRetries: 0 });
    });
    after(async () => {
      await site?.close();
      await team?.close();
    });

    it('when posts are held, then create returns the item as it will be, comments.create says held, and list, approve and reject answer the contract', async () => {
      const host = await team.feedback.create({ title: 'SDK host item' });
      const item = await site.feedback.create({ title: 'SDK held idea', endUser: { externalId: 'sdk-held' } });
      expect(item).to.deep.include({ title: 'SDK held idea', voteCount: 1, status: 'new' });
      expect(await rejection(site.feedback.get(item.id))).to.be.instanceOf(NotFoundError);
      const held = await site.comments.create(host.id, { content: 'SDK held comment', endUser: { externalId: 'sdk-held' } });
      expect(held.held).to.deep.equal({ reason: 'all' });
      expect(held.commentCount).to.equal(0);

      const queue = await team.moderation.list();
      expect(queue.map((post) => [post.id, post.kind])).to.deep.equal([
        [item.id, 'feedback'],
        [held.comment.id, 'comment'],
      ]);
      const approved = await team.moderation.approve([item.id]);
      expect(approved).to.deep.equal({ approved: [{ id: item.id, kind: 'feedback', feedbackId: item.id }], notFound: [] });
      expect((await site.feedback.get(item.id)).title).to.equal('SDK held idea');
      const rejected = await team.moderation.reject([held.comment.id], { block: true });
      expect(rejected).to.deep.equal({ rejected: [{ id: held.comment.id, kind: 'comment' }], blocked: 1, notFound: [] });
      const refused = await rejection(site.comments.create(host.id, { content: 'again', endUser: { externalId: 'sdk-held' } }));
      expect(refused).to.be.instanceOf(PermissionDeniedError);
      expect((refused as Error).message).to.include('the team blocked this author');
      expect(await rejection(site.moderation.list())).to.be.instanceOf(PermissionDeniedError);
      expect(await rejection(team.moderation.approve([]))).to.be.instanceOf(BadRequestError);
    });

    it('when an author is blocked (issue 49), then blocks() lists the block with its id and unblock(id) lifts it; a second unblock is NotFoundError', async () => {
      const held = await site.feedback.create({ title: 'SDK blocked idea', endUser: { externalId: 'sdk-blocked', name: 'Blocky' } });
      expect(await team.moderation.reject([held.id], { block: true, blockDays: 30 })).to.deep.include({ blocked: 1 });
      const block = (await team.moderation.blocks()).find((b) => b.author?.externalId === 'sdk-blocked')!;
      expect(block).to.deep.include({ scope: 'endUser', author: { externalId: 'sdk-blocked', name: 'Blocky' }, excerpt: 'SDK blocked idea' });
      expect(block.expiresAt).to.be.a('string');
      expect(await rejection(site.feedback.create({ title: 'Again', endUser: { externalId: 'sdk-blocked' } }))).to.be.instanceOf(PermissionDeniedError);
      expect(await team.moderation.unblock(block.id)).to.deep.equal({ id: block.id, deleted: true });
      expect((await site.feedback.create({ title: 'Back', endUser: { externalId: 'sdk-blocked' } })).title).to.equal('Back');
      const gone = await rejection(team.moderation.unblock(block.id));
      expect(gone).to.be.instanceOf(NotFoundError);
      expect((gone as Error).message).to.include('Block not found');
      expect(await rejection(site.moderation.blocks())).to.be.instanceOf(PermissionDeniedError);
    });
  });
}
