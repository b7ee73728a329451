import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { copyEmbeddedTemplate } from '../helpers/backends.js';
import { runFeedback as feedback, inProcess, startServe } from '../helpers/cli-process.js';
import { until } from '../helpers/until.js';
import { scratchRoot } from '../helpers/scratch.js';

const serve = (args: string[]) => startServe(args);

async function identify(url: string, key: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/identify`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ externalId: 'cli-user' }),
  });
  return res.status;
}

describe('feedback CLI', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(scratchRoot(), 'feedback-cli-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when --help is asked of each command, then it lists the flags with their environment variables and the exit codes', async () => {
    const top = await feedback(['--help']);
    expect(top.code).to.equal(0);
    expect(top.stdout).to.include('serve').and.include('migrate').and.include('keys').and.include('Exit codes');
    // The binary answered above; each command's help is the same main() run in this process, which spares a process per command.
    const serveHelp = await inProcess(['serve', '--help']);
    for (const name of ['FEEDBACK_PORT', 'FEEDBACK_HOST', 'FEEDBACK_DATA_DIR', 'DATABASE_URL', 'FEEDBACK_NO_MIGRATE', 'FEEDBACK_RATE_LIMIT', 'FEEDBACK_TRUST_PROXY', 'FEEDBACK_WORKERS']) {
      expect(serveHelp.stdout).to.include(name);
    }
    const keysHelp = await inProcess(['keys', 'create', '--help']);
    expect(keysHelp.stdout).to.include('--json').and.include('FEEDBACK_DATA_DIR');
  });

  it('when --board-min-fill is not a whole number of seconds from 0 to 600, then serve exits 2 before opening a database, naming the flag', async () => {
    for (const value of ['-1', '3.5', '601', 'soon']) {
      const run = await inProcess(['serve', '--board-min-fill', value, '--data-dir', dataDir]);
      expect(run.code, value).to.equal(2);
      expect(run.stderr).to.include(`--board-min-fill must be a whole number from 0 to 600, not "${value}"`);
    }
    const help = await inProcess(['serve', '--help']);
    expect(help.stdout).to.include('--board-min-fill').and.include('FEEDBACK_BOARD_MIN_FILL');
  });

  it('when a command or flag is unknown, then it exits 2 with a usage message on stderr', async () => {
    const run = await feedback(['frobnicate']);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.match(/unknown command/);
    // The binary's exit code is shown above; the flags' checks are main()'s, run in this process.
    const badPort = await inProcess(['serve', '--port', 'eighty', '--data-dir', dataDir]);
    expect(badPort.code).to.equal(2);
    const badLimit = await inProcess(['serve', '--rate-limit', '0', '--data-dir', dataDir]);
    expect(badLimit.code).to.equal(2);
    expect(badLimit.stderr).to.match(/--rate-limit must be a whole number of at least 1/);
    const badLimitWord = await inProcess(['serve', '--rate-limit', 'none', '--data-dir', dataDir]);
    expect(badLimitWord.code).to.equal(2);
    expect(badLimitWord.stderr).to.match(/--rate-limit must be a whole number of at least 1/);
    const badProxy = await inProcess(['serve', '--trust-proxy=many', '--data-dir', dataDir]);
    expect(badProxy.code).to.equal(2);
    expect(badProxy.stderr).to.match(/--trust-proxy must be a whole number/);
    const badWorkers = await inProcess(['serve', '--workers', '0', '--data-dir', dataDir]);
    expect(badWorkers.code).to.equal(2);
    expect(badWorkers.stderr).to.match(/--workers must be a whole number of at least 1/);
    const badRedis = await inProcess(['serve', '--redis-url', 'http://127.0.0.1:6379', '--data-dir', dataDir]);
    expect(badRedis.code).to.equal(2);
    expect(badRedis.stderr).to.match(/--redis-url must start with redis:\/\/ or rediss:\/\//);
  });

  it('when keys create --json runs on a migrated directory before serve, then it prints one JSON object whose key works once the server runs', async () => {
    // What `feedback migrate` makes, copied (the migrate test below runs the command itself).
    copyEmbeddedTemplate(dataDir);
    const created = await feedback(['keys', 'create', '--json', '--data-dir', dataDir]);
    expect(created.code, created.stderr).to.equal(0);
    const parsed = JSON.parse(created.stdout) as { key: string };
    expect(parsed.key).to.match(/^pk_[0-9A-Za-z]{32,}$/);
    const server = await serve(['--data-dir', dataDir]);
    try {
      expect(server.stdout(), 'a key exists already, so serve prints none').not.to.match(/pk_/);
      expect(await identify(server.url, parsed.key)).to.equal(200);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).to.equal(0);
    }
  });

  it('when serve starts on an empty database, then it prints one key; keys made while it runs work; SIGTERM exits 0', async () => {
    const server = await serve(['--data-dir', dataDir]);
    let exited = false;
    try {
      // The key is printed right after the "listening" log line, on the other stream.
      await until(() => /pk_/.test(server.stdout()), 30_000, 'the first key');
      const first = /(pk_[0-9A-Za-z]+)/.exec(server.stdout())?.[1];
      expect(first, 'the first key is printed').to.be.a('string');
      // The first start says what it does while it creates the database, then that it is ready, and where.
      await until(() => /is ready at/.test(server.stderr()), 30_000, 'the ready line');
      expect(server.stderr()).to.include(`First start: creating the embedded database in ${dataDir}. It usually takes 4 to 30 seconds`);
      expect(server.stderr()).to.match(/Created the embedded database in \d+\.\d s\./);
      expect(server.stderr()).to.include(`is ready at ${server.url} (1 worker, started in`);
      expect(await identify(server.url, first!)).to.equal(200);

      // Operator commands beside the running server (through its socket), run in this process: the
      // binary's own start is what the test above and the one below look at.
      const during = await inProcess(['keys', 'create', '--json', '--data-dir', dataDir]);
      expect(during.code, during.stderr).to.equal(0);
      const key = (JSON.parse(during.stdout) as { key: string }).key;
      expect(await identify(server.url, key)).to.equal(200);

      const listed = await inProcess(['keys', 'list', '--json', '--data-dir', dataDir]);
      expect((JSON.parse(listed.stdout) as unknown[]).length).to.equal(2);

      const revoked = await inProcess(['keys', 'revoke', key, '--data-dir', dataDir]);
      expect(revoked.code).to.equal(0);
      // The server trusts a key it has looked up for at most KEY_CACHE_TTL_MS.
      await until(async () => (await identify(server.url, key)) === 401, 10_000, 'the revoked key to be refused');

      const second = await feedback(['serve', '--port', '0', '--data-dir', dataDir]);
      expect(second.code).to.equal(1);
      expect(second.stderr).to.match(/in use by process/);

      server.child.kill('SIGTERM');
      expect(await server.exited).to.equal(0);
      exited = true;
      expect(server.stderr()).to.match(/stopped/);
    } finally {
      if (!exited) server.child.kill('SIGKILL');
    }
  });

  it('when serve runs with --rate-limit off, then requests carry no rate-limit headers and none is refused', async () => {
    // Migrated, and without a key: serve still mints and prints a first one, without migrating in the child.
    const server = await serve(['--data-dir', copyEmbeddedTemplate(dataDir), '--rate-limit', 'off']);
    try {
      await until(() => /pk_/.test(server.stdout()), 30_000, 'the first key');
      const key = /(pk_[0-9A-Za-z]+)/.exec(server.stdout())![1]!;
      // More requests than the default limit lets a key make in a minute, 10 at a time: all at once,
      // the embedded database (one statement at a time) would shed some with its 503 on a busy
      // machine, which is its overload answer, not the rate limit this test is about.
      const responses: Response[] = [];
      for (let batch = 0; batch < 12; batch += 1) {
        responses.push(...(await Promise.all(Array.from({ length: 10 }, () => fetch(`${server.url}/api/v1/feedback?limit=1`, { headers: { 'x-api-key': key } })))));
      }
      expect(responses.map((res) => res.status).filter((status) => status !== 200)).to.deep.equal([]);
      expect(responses.every((res) => res.headers.get('ratelimit-policy') === null && res.headers.get('ratelimit') === null)).to.equal(true);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).to.equal(0);
    }
  });

  it('when serve runs with --rate-limit 3 --trust-proxy, then the key gets 3 requests a minute and X-Forwarded-For names the voter', async () => {
    const server = await serve(['--data-dir', copyEmbeddedTemplate(dataDir), '--rate-limit', '3', '--trust-proxy']);
    try {
      await until(() => /pk_/.test(server.stdout()), 30_000, 'the first key');
      const key = /(pk_[0-9A-Za-z]+)/.exec(server.stdout())![1]!;
      const call = (method: string, path: string, forwardedFor: string) =>
        fetch(server.url + path, { method, headers: { 'x-api-key': key, 'x-forwarded-for': forwardedFor } });
      const created = await fetch(`${server.url}/api/v1/feedback`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
        body: JSON.stringify({ title: 'Proxy test' }),
      });
      expect(created.headers.get('ratelimit-policy')).to.equal('"default";q=3;w=60');
      const id = ((await created.json()) as { feedback: { id: string } }).feedback.id;
      // The anonymous submission is the vote of 203.0.113.1, as the proxy reported it.
      const sameCaller = await call('GET', `/api/v1/feedback/${id}/vote`, '198.51.100.7, 203.0.113.1');
      expect(await sameCaller.json()).to.deep.equal({ voted: true, voteCount: 1 });
      const otherCaller = await call('GET', `/api/v1/feedback/${id}/vote`, '203.0.113.2');
      expect(await otherCaller.json()).to.deep.equal({ voted: false, voteCount: 1 });
      const limited = await call('GET', '/api/v1/feedback', '203.0.113.1');
      expect(limited.status).to.equal(429);
      expect(limited.headers.get('retry-after')).to.match(/^\d+$/);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).to.equal(0);
    }
  });

  it('when migrate runs on a fresh directory, then status says there is no database, up applies every migration, and status after down shows the one pending', async () => {
    const missing = join(dataDir, 'data');
    const before = await feedback(['migrate', 'status', '--json', '--data-dir', missing]);
    expect(before.code).to.equal(3);
    expect(existsSync(missing), 'status creates nothing').to.equal(false);
    const up = await feedback(['migrate', 'up', '--json', '--data-dir', missing]);
    expect(up.code, up.stderr).to.equal(0);
    const applied = (JSON.parse(up.stdout) as { applied: string[] }).applied;
    expect(applied.length).to.be.greaterThan(3);
    // The rest through main() in this process: the binary's start was just seen twice, and each
    // child would spend seconds loading the CLI and the embedded database again.
    const after = await inProcess(['migrate', 'status', '--json', '--data-dir', missing]);
    const status = JSON.parse(after.stdout) as { executed: { name: string }[]; pending: string[] };
    expect(status.pending).to.deep.equal([]);
    expect(status.executed.map((m) => m.name)).to.deep.equal(applied);
    const down = await inProcess(['migrate', 'down', '--json', '--data-dir', missing]);
    expect(JSON.parse(down.stdout)).to.deep.equal({ reverted: [applied.at(-1)] });
    const pending = await inProcess(['migrate', 'status', '--json', '--data-dir', missing]);
    expect((JSON.parse(pending.stdout) as { pending: string[] }).pending).to.deep.equal([applied.at(-1)]);
  });

  it('when a key that does not exist is revoked, then it exits 3', async () => {
    copyEmbeddedTemplate(dataDir);
    // main() in this process: a child would spend seconds loading the CLI and the embedded database for one lookup.
    const run = await inProcess(['keys', 'revoke', '00000000-0000-0000-0000-000000000000', '--data-dir', dataDir]);
    expect(run.code).to.equal(3);
    expect(run.stderr).to.match(/no API key matches/);
  });

  if (process.env.TEST_DATABASE_URL) {
    it('when --database-url points at PostgreSQL, then keys create and serve use it', async () => {
      const { backends } = await import('../helpers/backends.js');
      const postgres = backends().find((b) => b.name === 'postgres')!;
      const fresh = await postgres.create();
      const url = fresh.location.databaseUrl!;
      try {
        expect((await feedback(['migrate', '--database-url', url])).code).to.equal(0);
        const created = await feedback(['keys', 'create', '--json', '--database-url', url]);
        expect(created.code, created.stderr).to.equal(0);
        const key = (JSON.parse(created.stdout) as { key: string }).key;
        const server = await serve(['--database-url', url]);
        expect(await identify(server.url, key)).to.equal(200);
        server.child.kill('SIGTERM');
        expect(await server.exited).to.equal(0);
      } finally {
        await fresh.drop();
      }
    });
  }
});
