import { randomInt } from 'node:crypto';
import { expect } from 'chai';
import { BadRequestError, FeedbackClient } from '@feedbackd/sdk';
import { rejection } from '../helpers/assertions.js';
import { backends } from '../helpers/backends.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** A made-up word of eight letters, so that no other item of the shared project is similar. */
function madeUpWord(): string {
  return Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');
}

for (const backend of backends()) {
  describe(`SDK feedback.similar against the real server (${backend.name})`, () => {
    let server: TestServer;
    let client: FeedbackClient;

    before(async () => {
      server = await startTestServer(backend);
      client = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey });
    });
    after(async () => {
      await client?.close();
      await server?.close();
    });

    it('when feedback.similar is called with a title, then the closest items come first, typed, with similarity and userHasVoted', async () => {
      const word = madeUpWord();
      const exact = await client.feedback.create({ title: `${word} sync`, endUser: { externalId: `sdk-${word}` } });
      const longer = await client.feedback.create({ title: `${word} sync for every calendar we use` });
      const items = await client.feedback.similar(`${word} sync`, { endUserId: `sdk-${word}` });
      expect(items.map((item) => item.id)).to.deep.equal([exact.id, longer.id]);
      expect(items[0]).to.include({ title: `${word} sync`, similarity: 1, userHasVoted: true, voteCount: 1 });
      expect(items[1]!.userHasVoted).to.equal(false);
      expect(await client.feedback.similar(`${word} sync`, { limit: 1 })).to.have.length(1);
      await server.sql('update feedback set status = ? where id = ?', ['planned', longer.id]);
      expect((await client.feedback.similar(word, { status: ['planned', 'in-progress'] })).map((item) => item.id)).to.deep.equal([longer.id]);
    });

    it('when the title is empty or the limit is out of range, then BadRequestError carries the field details', async () => {
      const empty = await rejection(client.feedback.similar(''));
      expect(empty).to.be.instanceOf(BadRequestError);
      expect((empty as BadRequestError).details?.fieldErrors.title).to.deep.equal(['Title is required']);
      const limit = await rejection(client.feedback.similar('Dark', { limit: 11 }));
      expect(limit).to.be.instanceOf(BadRequestError);
      expect((limit as BadRequestError).details?.fieldErrors.limit).to.deep.equal(['limit must be an integer between 1 and 10']);
    });
  });
}
