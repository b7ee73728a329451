import { expect } from 'chai';
import { FeedbackClient } from '@feedbackd/sdk';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { expectCountersExact } from '../helpers/invariants.js';
import { locationOf, withServer } from '../helpers/test-server.js';

/** `feedback users erase|export` on the database, while the server runs on it (issue 37, finding 7). */
for (const backend of backends()) {
  describe(`feedback CLI: users erase and export (${backend.name})`, () => {
    const server = withServer(backend);
    let client: FeedbackClient;
    before(() => {
      client = new FeedbackClient({ baseUrl: server.url, apiKey: server.apiKey, maxRetries: 0 });
    });
    after(async () => client?.close());

    it('when an end user is exported then erased with --delete-content, then the export prints their document, the erasure its counts, and a second erasure zero counts', async () => {
      const item = await client.feedback.create({ title: 'Offline mode', endUser: { externalId: 'cli-erin', name: 'Erin Cli' } });
      const other = await client.feedback.create({ title: 'Sync', endUser: { externalId: 'cli-bob' } });
      await client.votes.toggle(other.id, { endUser: { externalId: 'cli-erin' } });

      const exported = await inProcess(['users', 'export', 'cli-erin', '--project', 'default', ...locationOf(server)]);
      expect(exported.code, exported.stderr).to.equal(0);
      const document = JSON.parse(exported.stdout);
      expect(document.endUser).to.include({ externalId: 'cli-erin', name: 'Erin Cli' });
      expect(document.submissions.map((s: { id: string }) => s.id)).to.deep.equal([item.id]);
      expect(document.votes.map((v: { feedbackId: string }) => v.feedbackId)).to.have.members([item.id, other.id]);

      const erased = await inProcess(['users', 'erase', 'cli-erin', '--delete-content', '--json', ...locationOf(server)]);
      expect(erased.code, erased.stderr).to.equal(0);
      expect(JSON.parse(erased.stdout)).to.deep.include({ erased: true });
      expect(JSON.parse(erased.stdout).counts).to.include({ endUsers: 1, votes: 2, submissionsDeleted: 1 });
      expect((await client.feedback.get(other.id)).voteCount).to.equal(1);
      await expectCountersExact(server);

      const again = await inProcess(['users', 'erase', 'cli-erin', ...locationOf(server)]);
      expect(again.code, again.stderr).to.equal(0);
      expect(again.stdout).to.contain('nothing held of this end user');
    });

    it('when the end user or the project is unknown, then export exits with 3', async () => {
      const unknown = await inProcess(['users', 'export', 'nobody', ...locationOf(server)]);
      expect(unknown.code).to.equal(3);
      expect(unknown.stderr).to.contain('no end user "nobody"');
      const project = await inProcess(['users', 'erase', 'nobody', '--project', 'nope', ...locationOf(server)]);
      expect(project.code).to.equal(3);
    });
  });
}
