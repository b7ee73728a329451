import { expect } from 'chai';
import { FeedbackClient } from '@feedbackd/sdk';
import { backends } from '../helpers/backends.js';
import { withServer } from '../helpers/test-server.js';
import { endUserToken, identitySecretOf } from '../helpers/end-user-token.js';
import { startReceiver, until } from '../helpers/webhook-receiver.js';

/*
 * Issue 37, "chat injection": titles and comments come from anyone on the internet, and a
 * `slack` or `discord` endpoint posts them into the team's channel. What reaches the receiver is
 * the body the chat tool gets, so the tests read it as that tool would.
 */

/** The title, as an anonymous visitor posted it. */
const HOSTILE_TITLE = '<!channel> @everyone <https://x|Re-verify your account>';
/** Discord's forms: a channel-wide ping, a user mention and a masked link. */
const DISCORD_TITLE = '@everyone <@123456789> [Re-verify your account](https://x)';
const ZWSP = '\u200B';

for (const backend of backends()) {
  describe(`webhooks: chat injection (${backend.name})`, () => {
    const server = withServer(backend, { webhooksAllowPrivate: true });
    let client: FeedbackClient;
    let publicClient: FeedbackClient;
    before(async () => {
      client = new FeedbackClient({ baseUrl: server.url, apiKey: await server.newKey(undefined, 'secret'), maxRetries: 0 });
      publicClient = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
    });
    afterEach(async () => {
      for (const webhook of await client.webhooks.list()) await client.webhooks.delete(webhook.id);
    });
    after(async () => {
      await client?.close();
      await publicClient?.close();
    });

    /** Subscribes a receiver in `format` to `events`, runs `act`, and answers the first `count` bodies it got. */
    async function chatBodies(format: 'slack' | 'discord', events: ('feedback.created' | 'comment.created' | 'feedback.deleted')[], act: () => Promise<unknown>, count = 1): Promise<Record<string, unknown>[]> {
      const receiver = await startReceiver();
      try {
        await client.webhooks.create({ url: receiver.url, events, format });
        await act();
        await until(() => receiver.received.length >= count, 15_000, `${count} ${format} deliveries`);
        return receiver.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
      } finally {
        await receiver.close();
      }
    }

    it('when an anonymous title carries <!channel> and a <url|label> link (chat injection), then Slack gets it with & < > escaped, as plain text', async () => {
      const [body] = await chatBodies('slack', ['feedback.created'], () => publicClient.feedback.create({ title: HOSTILE_TITLE }));
      expect(body).to.deep.equal({ text: 'New idea: "&lt;!channel&gt; @everyone &lt;https://x|Re-verify your account&gt;"' });
      const text = String(body!.text);
      // No control sequence of Slack's is left: no `<` at all, and every `&` starts one of the three entities.
      expect(text).not.to.match(/[<>]/);
      expect(text.replace(/&(amp|lt|gt);/g, '')).not.to.include('&');
    });

    it('when an anonymous title carries @everyone, a mention and a [label](url) link (chat injection), then Discord gets it with no mention allowed and the link syntax escaped', async () => {
      const [body] = await chatBodies('discord', ['feedback.created'], () => publicClient.feedback.create({ title: DISCORD_TITLE }));
      expect(body).to.deep.equal({
        content: `New idea: "@${ZWSP}everyone \\<@${ZWSP}123456789\\> \\[Re-verify your account\\]\\(https://x\\)"`,
        allowed_mentions: { parse: [] },
      });
      const content = String(body!.content);
      expect(content).not.to.match(/@(everyone|here)/);
      // A masked link needs `[` right after a character other than a backslash: none is left.
      expect(content).not.to.match(/(^|[^\\])\[/);
    });

    it('when the issue\'s Slack title goes to Discord and its Discord forms to Slack (chat injection), then each is plain text there too', async () => {
      const [discord] = await chatBodies('discord', ['feedback.created'], () => publicClient.feedback.create({ title: HOSTILE_TITLE }));
      expect(discord!.content).to.equal(`New idea: "\\<!channel\\> @${ZWSP}everyone \\<https://x\\|Re-verify your account\\>"`);
      const [slack] = await chatBodies('slack', ['feedback.created'], () => publicClient.feedback.create({ title: DISCORD_TITLE }));
      expect(slack).to.deep.equal({ text: 'New idea: "@everyone &lt;@123456789&gt; [Re-verify your account](https://x)"' });
    });

    it('when every value of a line is hostile (chat injection: the submitter\'s id, a comment over several lines), then each is escaped and the message stays one line', async () => {
      const item = await publicClient.feedback.create({ title: 'Plain', endUser: { externalId: '<!here>' } });
      const comment = 'First line\n> <!channel> quoted\r\n# [heading](https://x) *bold* `code` ||spoiler|| \\';
      const bodies = await chatBodies('slack', ['comment.created'], () => client.admin.addComment(item.id, { content: comment, team: { name: 'Support' } }));
      expect(bodies[0]).to.deep.equal({ text: `New comment on ${item.id}: "First line &gt; &lt;!channel&gt; quoted # [heading](https://x) *bold* \`code\` ||spoiler|| \\"` });
      const discord = await chatBodies('discord', ['feedback.created', 'comment.created'], async () => {
        const second = await publicClient.feedback.create({ title: 'Plain', endUser: { externalId: '@here' } });
        await client.admin.addComment(second.id, { content: comment, team: { name: 'Support' } });
      }, 2);
      const contents = discord.map((body) => String(body.content));
      expect(contents).to.include(`New idea: "Plain" from @${ZWSP}here`);
      const escaped = contents.find((content) => content.startsWith('New comment'));
      expect(escaped).to.match(/: "First line \\> \\<!channel\\> quoted # \\\[heading\\\]\\\(https:\/\/x\\\) \\\*bold\\\* \\`code\\` \\\|\\\|spoiler\\\|\\\| \\\\"$/);
      for (const body of discord) expect(body.allowed_mentions).to.deep.equal({ parse: [] });
    });

    it("when an erasure deletes the person's item (content=delete, issue 49 finding 6), then the chat is told the item's id was deleted, never its title", async () => {
      const item = await publicClient.feedback.create({ title: 'Erased chat title', endUser: { externalId: 'erased-in-chat' } });
      const bodies = await chatBodies('slack', ['feedback.deleted'], () => client.users.erase('erased-in-chat', { content: 'delete' }));
      expect(bodies[0]).to.deep.equal({ text: `Item ${item.id} was deleted` });
    });

    it('when an end user deletes their comment with the team\'s note under it (issue 49, finding 3: Slack said "with 1 replies"), then the Slack line counts no reply; a channel with includeInternal reads where the note went', async () => {
      const plain = await startReceiver();
      const inside = await startReceiver();
      try {
        await client.webhooks.create({ url: plain.url, events: ['comment.updated', 'comment.deleted'], format: 'slack' });
        await client.webhooks.create({ url: inside.url, events: ['comment.updated', 'comment.deleted'], format: 'slack', includeInternal: true });
        const item = await publicClient.feedback.create({ title: 'Slack thread' });
        const { comment } = await publicClient.comments.create(item.id, { content: 'Ring me', endUser: { externalId: 'slack-ann' } });
        await client.comments.create(item.id, { content: 'VIP <!channel>', team: { name: 'Sales' }, internal: true, parentId: comment.id });
        await publicClient.comments.delete(item.id, comment.id, { endUserId: 'slack-ann', userToken: endUserToken(await identitySecretOf(server), 'slack-ann') });
        await until(() => plain.received.length >= 1 && inside.received.length >= 2, 15_000, 'the Slack deliveries');
        const texts = (receiver: typeof plain) => receiver.received.map((r) => (JSON.parse(r.body) as { text: string }).text).sort();
        expect(texts(plain)).to.deep.equal([`A comment on ${item.id} was deleted`]);
        expect(texts(inside)).to.deep.equal([`A comment on ${item.id} was deleted`, `An internal note on ${item.id} was updated: "VIP &lt;!channel&gt;"`]);

        // The team's own delete of a thread with a visible reply and a note: one reply, in the singular.
        const second = await publicClient.comments.create(item.id, { content: 'Again', endUser: { externalId: 'slack-ann' } });
        await publicClient.comments.create(item.id, { content: 'Me too', endUser: { externalId: 'slack-bob' }, parentId: second.comment.id });
        await client.comments.create(item.id, { content: 'Watch this', team: { name: 'Sales' }, internal: true, parentId: second.comment.id });
        await client.comments.delete(item.id, second.comment.id);
        await until(() => plain.received.length >= 2 && inside.received.length >= 3, 15_000, 'the second Slack deliveries');
        expect(texts(plain)).to.deep.include(`A comment on ${item.id} was deleted, with 1 reply`);
        expect(texts(inside)).to.deep.include(`A comment on ${item.id} was deleted, with 1 reply`);
      } finally {
        await plain.close();
        await inside.close();
      }
    });
  });
}
