import { expect } from 'chai';
import { embeddedBackend } from '../helpers/backends.js';
import { inProcess } from '../helpers/cli-process.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('feedback CLI: similar', function () {
  let server: TestServer;
  /** Runs in-process against the test server, with the API options after the command. */
  const run = (args: string[], options: { tty?: boolean } = {}) => inProcess([...args, '--url', server.url, '--api-key', server.apiKey], options);
  let near: string;
  let word: string;

  before(async () => {
    server = await startTestServer(embeddedBackend);
    const submit = async (title: string) => {
      const result = await run(['submit', title]);
      expect(result.code, result.stderr).to.equal(0);
      return result.stdout.trim();
    };
    near = await submit('Please add a dark theme');
    word = await submit('Dark mode');
    await submit('Export invoices as PDF');
  });
  after(async () => server?.close());

  it('when --help is asked, then it shows the argument, --limit, --status, --user and the API options', async () => {
    const help = await inProcess(['similar', '--help']);
    expect(help.code).to.equal(0);
    const text = help.stdout.replace(/\s+/g, ' ');
    expect(text).to.include('similar [options] <title>').and.include('--limit <n>').and.include('1 to 10 (default 5)').and.include('--status <list>').and.include('--user <externalId>');
    expect(text).to.include('--json').and.include('env: FEEDBACK_URL').and.include('env: FEEDBACK_API_KEY');
  });

  it('when --json is given, then stdout is the API answer: {items}, closest first, each with its similarity', async () => {
    const result = await run(['similar', 'Dark theme please', '--json']);
    expect(result.code, result.stderr).to.equal(0);
    const body = JSON.parse(result.stdout) as { items: { id: string; similarity: number; userHasVoted: boolean }[] };
    expect(Object.keys(body)).to.deep.equal(['items']);
    expect(body.items.map((item) => item.id)).to.deep.equal([near, word]);
    expect(body.items[0]!.similarity).to.be.greaterThan(body.items[1]!.similarity);
  });

  it('when piped, then each item is one line: similarity, id, status, votes, title; --limit keeps the closest', async () => {
    const result = await run(['similar', 'Dark theme please', '--limit', '1']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stderr).to.equal('');
    expect(result.stdout).to.match(new RegExp(`^0\\.\\d+\\t${near}\\tnew\\t1\\tPlease add a dark theme\\n$`));
  });

  it('when stdout is a terminal, then it prints a table with the similarity in percent, or says that nothing is similar', async () => {
    const result = await run(['similar', 'Dark theme please'], { tty: true });
    expect(result.code, result.stderr).to.equal(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^SIMILAR +ID +STATUS +VOTES +TITLE$/);
    expect(lines).to.have.length(3);
    expect(lines[1]).to.match(new RegExp(`^\\d{1,3}% +${near} +new +1 +Please add a dark theme$`));
    const none = await run(['similar', 'Quarterly tax forms'], { tty: true });
    expect(none.code).to.equal(0);
    expect(none.stdout).to.equal('No similar feedback.\n');
  });

  it('when --limit is out of range, then it exits 2 before any request; an empty title exits 2 with the server message', async () => {
    const limit = await run(['similar', 'Dark', '--limit', '11']);
    expect(limit.code).to.equal(2);
    expect(limit.stderr).to.match(/--limit must be a whole number from 1 to 10/);
    const status = await run(['similar', 'Dark', '--status', 'open']);
    expect(status.code).to.equal(2);
    expect(status.stderr).to.match(/--status takes one or more of new, under-review/);
    const empty = await run(['similar', ' ']);
    expect(empty.code).to.equal(2);
    expect(empty.stderr).to.equal('feedback: Invalid input: title: Title is required\n');
  });
});
