import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { backends, type FreshDatabase } from '../helpers/backends.js';
import { parseLogLine, runFeedback, startServe, type ServeProcess } from '../helpers/cli-process.js';
import { hasPromtool, promtoolCheck, sampleSum, scrape } from '../helpers/metrics-text.js';
import { until } from '../helpers/until.js';

/** The TCP ports process `pid` listens on (Linux: its socket inodes matched in /proc/net/tcp and tcp6). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const target = (() => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return '';
      }
    })();
    const match = /^socket:\[(\d+)\]$/.exec(target);
    if (match) inodes.add(match[1]!);
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is fields[1] (hex address:port), st fields[3] (0A is LISTEN), inode fields[9].
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.add(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** The metrics URL of the `listening` log line, if any. */
function metricsUrlOf(server: ServeProcess): string | undefined {
  const entry = server.stderr().split('\n').map(parseLogLine).find((line) => line?.msg === 'listening');
  return typeof entry?.metricsUrl === 'string' ? entry.metricsUrl : undefined;
}

async function firstKey(server: ServeProcess): Promise<string> {
  await until(() => /pk_/.test(server.stdout()), 30_000, 'the first key');
  return /(pk_[0-9A-Za-z]+)/.exec(server.stdout())![1]!;
}

for (const backend of backends()) {
  for (const workers of [1, 2]) {
    describe(`feedback serve --metrics-port, ${workers} worker${workers === 1 ? '' : 's'} (${backend.name})`, () => {
      let database: FreshDatabase;
      let server: ServeProcess;
      let where: string[];
      before(async () => {
        database = await backend.createMigrated();
        where = database.location.databaseUrl ? ['--database-url', database.location.databaseUrl] : ['--data-dir', database.location.dataDir];
        // The environment variable, as a process manager sets it; the flag is the same option.
        server = await startServe(['--workers', String(workers), ...where], { FEEDBACK_METRICS_PORT: '0' });
      });
      after(async () => {
        if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
        await server?.exited;
        await database?.drop();
      });

      it('when requests arrive, then the request counter of the scrape grows by exactly them (summed over every worker), and promtool finds nothing to fix', async () => {
        const metricsUrl = metricsUrlOf(server)!;
        expect(metricsUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(metricsUrl).to.not.equal(server.url);
        const key = await firstKey(server);
        const labels = { method: 'GET', route: '/api/v1/feedback', status: '200' };
        const before = sampleSum(await scrape(metricsUrl), 'feedback_http_requests_total', labels);
        const requests = 24;
        const statuses = await Promise.all(
          Array.from({ length: requests }, () => fetch(`${server.url}/api/v1/feedback?limit=1`, { headers: { 'x-api-key': key } }).then((res) => res.status)),
        );
        expect(statuses.filter((status) => status === 200)).to.have.length(requests);
        const text = await scrape(metricsUrl);
        expect(sampleSum(text, 'feedback_http_requests_total', labels) - before).to.equal(requests);
        expect(sampleSum(text, 'feedback_serving_processes')).to.equal(workers);
        if (workers > 1) {
          // The requests were spread over the workers, so the total above is a sum, not one worker's count.
          const pids = () => new Set(server.stderr().split('\n').map(parseLogLine).filter((entry) => entry?.msg === 'request').map((entry) => entry!.pid));
          // Each worker writes its request lines on its own: wait for them rather than for a time.
          await until(() => pids().size > 1, 10_000, 'request lines of more than one worker');
          expect(pids().size, 'requests were served by more than one worker').to.be.greaterThan(1);
        }
        if (hasPromtool()) {
          const { code, output } = await promtoolCheck(text);
          expect(output).to.equal('');
          expect(code).to.equal(0);
        }
      });

      it('when /metrics is asked of the API port, then it is not served there', async () => {
        const response = await fetch(`${server.url}/metrics`, { headers: { 'x-api-key': await firstKey(server) } });
        expect(response.status).to.equal(404);
        expect(await response.text()).to.not.include('feedback_http_requests_total');
      });

      it('when the serving processes are looked at, then the primary (or the single process) listens on the API port and the metrics port', function () {
        if (!existsSync('/proc/net/tcp')) this.skip();
        const ports = [Number(new URL(server.url).port), Number(new URL(metricsUrlOf(server)!).port)].sort((a, b) => a - b);
        expect(listeningPorts(server.child.pid!)).to.deep.equal(ports);
      });
    });
  }
}

describe('feedback serve without --metrics-port', () => {
  for (const workers of [1, 2]) {
    it(`when ${workers} worker${workers === 1 ? '' : 's'} serve without the flag, then nothing listens but the API port, which has no /metrics`, async function () {
      const database = await backends()[0]!.createMigrated();
      const server = await startServe(['--workers', String(workers), '--data-dir', database.location.dataDir]);
      try {
        expect(metricsUrlOf(server)).to.equal(undefined);
        const response = await fetch(`${server.url}/metrics`, { headers: { 'x-api-key': await firstKey(server) } });
        expect(response.status).to.equal(404);
        await response.text();
        if (existsSync('/proc/net/tcp')) expect(listeningPorts(server.child.pid!)).to.deep.equal([Number(new URL(server.url).port)]);
      } finally {
        server.child.kill('SIGKILL');
        await server.exited;
        await database.drop();
      }
    });
  }

  it('when --metrics-port is the API port, then serve refuses with a usage error', async () => {
    const run = await runFeedback(['serve', '--port', '3999', '--metrics-port', '3999', '--data-dir', 'unused-never-created']);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('--metrics-port must differ from --port');
  });
});
