import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';

/** `feedback moderation list|approve|reject|blocks|unblock` (docs/moderation.md): the queue and its blocks from the terminal, with a secret key. */
for (const backend of backends()) {
  describe(`feedback CLI: moderation (${backend.name})`, () => {
    let server: TestServer;
    let secretKey: string;
    let publicKey: string;
    const run = (args: string[], options: { tty?: boolean; key?: string } = {}) => inProcess([...args, '--url', server.url, '--api-key', options.key ?? secretKey], options);

    before(async () => {
      server = await startTestServer(backend);
      secretKey = await server.newKey('cli-moderation', 'secret');
      expect((await request({ url: server.url, apiKey: secretKey }, 'PATCH', '/api/v1/board', { body: { moderation: 'all' } })).status).to.equal(200);
      // Made after the setting, so its cached project holds it from its first use.
      publicKey = await server.newKey('cli-moderation', 'public');
    });
    after(async () => server?.close());

    const hold = async (title: string, externalId: string) => {
      const res = await request({ url: server.url, apiKey: publicKey }, 'POST', '/api/v1/feedback', { body: { title, endUser: { externalId } } });
      expect(res.status).to.equal(202);
      return res.body.feedback.id as string;
    };

    it('when posts are held, then list prints a table on a terminal and one line per post piped; approve and reject print a line per post, and --block says how many authors', async () => {
      const first = await hold('Held from the terminal', 'cli-hana');
      const second = await hold('Spam from the terminal', 'cli-spam');
      const table = await run(['moderation', 'list'], { tty: true });
      expect(table.code, table.stderr).to.equal(0);
      expect(table.stdout).to.match(/^ID\s+KIND\s+WHY\s+AUTHOR\s+HELD\s+TEXT/);
      expect(table.stdout).to.include('Held from the terminal').and.include('cli-spam');
      const piped = await run(['moderation', 'list']);
      expect(piped.stdout.trim().split('\n').filter((line) => line.startsWith(first) || line.startsWith(second))).to.have.length(2);

      const approved = await run(['moderation', 'approve', first]);
      expect(approved.code, approved.stderr).to.equal(0);
      expect(approved.stdout.trim()).to.equal(`${first}\tapproved\tfeedback`);
      const rejected = await run(['moderation', 'reject', second, '--block'], { tty: true });
      expect(rejected.code, rejected.stderr).to.equal(0);
      expect(rejected.stdout).to.include('rejected').and.include('1 author(s) blocked');
      const empty = await run(['moderation', 'list'], { tty: true });
      expect(empty.stdout.trim()).to.equal('Nothing is waiting for the team.');
      expect((await request({ url: server.url, apiKey: publicKey }, 'POST', '/api/v1/feedback', { body: { title: 'Again', endUser: { externalId: 'cli-spam' } } })).status).to.equal(403);
    });

    it('when an author is blocked (issue 49), then `moderation blocks` lists the block with its id (a table, tab-separated lines, --json), `unblock <id>` lifts it, and an id not in force exits 3', async () => {
      const spam = await hold('Blocked from the terminal', 'cli-blocked');
      const rejected = await run(['moderation', 'reject', spam, '--block', '--block-days', '7', '--json']);
      expect(rejected.code, rejected.stderr).to.equal(0);
      expect(JSON.parse(rejected.stdout)).to.deep.include({ blocked: 1 });

      const json = await run(['moderation', 'blocks', '--json']);
      expect(json.code, json.stderr).to.equal(0);
      const block = (JSON.parse(json.stdout).items as { id: string; scope: string; author: { externalId: string } | null; excerpt: string; expiresAt: string }[]).find((b) => b.author?.externalId === 'cli-blocked')!;
      expect(block).to.deep.include({ scope: 'endUser', excerpt: 'Blocked from the terminal' });
      expect(Math.abs(Date.parse(block.expiresAt) - (Date.now() + 7 * 86_400_000))).to.be.below(10 * 60_000);
      const table = await run(['moderation', 'blocks'], { tty: true });
      expect(table.code, table.stderr).to.equal(0);
      expect(table.stdout).to.match(/^ID\s+BLOCKED\s+SINCE\s+UNTIL\s+POST/);
      expect(table.stdout).to.include(block.id).and.include('cli-blocked').and.include('Blocked from the terminal');
      const piped = await run(['moderation', 'blocks']);
      expect(piped.stdout.split('\n').find((line) => line.startsWith(`${block.id}\t`))).to.match(/^\S+\tcli-blocked\t/);
      expect((await request({ url: server.url, apiKey: publicKey }, 'POST', '/api/v1/feedback', { body: { title: 'Blocked', endUser: { externalId: 'cli-blocked' } } })).status).to.equal(403);

      const lifted = await run(['moderation', 'unblock', block.id]);
      expect(lifted.code, lifted.stderr).to.equal(0);
      expect(lifted.stdout.trim()).to.equal(`${block.id}\tunblocked`);
      expect((await request({ url: server.url, apiKey: publicKey }, 'POST', '/api/v1/feedback', { body: { title: 'Back', endUser: { externalId: 'cli-blocked' } } })).status).to.equal(202);
      const again = await run(['moderation', 'unblock', block.id], { tty: true });
      expect(again.code).to.equal(3);
      expect(again.stderr).to.include('Block not found');
      expect((await run(['moderation', 'unblock', ' '])).code).to.equal(2);
      const lengthAlone = await run(['moderation', 'reject', spam, '--block-days', '7']);
      expect(lengthAlone.code).to.equal(2);
      expect(lengthAlone.stderr).to.include('--block-days needs --block');
      const badLength = await run(['moderation', 'reject', spam, '--block', '--block-days', '0']);
      expect(badLength.code).to.equal(2);
      expect(badLength.stderr).to.include('--block-days must be a whole number from 1 to 365');
    });

    it('when the ids are not held, the key is public or an id is empty, then exit 3, 4 or 2 with the reason', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      const missing = await run(['moderation', 'approve', unknown]);
      expect(missing.code).to.equal(3);
      expect(missing.stderr).to.include(`not held: ${unknown}`);
      const json = await run(['moderation', 'reject', unknown, '--json']);
      expect(json.code).to.equal(0);
      expect(JSON.parse(json.stdout)).to.deep.equal({ rejected: [], blocked: 0, notFound: [unknown] });
      const publicCall = await run(['moderation', 'list'], { key: publicKey });
      expect(publicCall.code).to.equal(4);
      expect(publicCall.stderr).to.include('This operation requires a secret key');
      expect((await run(['moderation', 'approve', ' '])).code).to.equal(2);
    });
  });
}
