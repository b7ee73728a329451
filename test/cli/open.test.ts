import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends } from '../helpers/backends.js';
import { BIN, cleanEnv, inProcess, runFeedback, type Run } from '../helpers/cli-process.js';
import { withServer, locationOf } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** `feedback open` (docs/cli.md, docs/triage.md): a one-time sign-in link, on the database or with a secret key. */

/** `feedback ...` run as runFeedback runs it, but in `cwd`: where the default data directory, ./.feedback, is looked for. */
function runIn(cwd: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Uses a link as a browser would: 303 to the inbox the first time. */
async function signInStatus(url: string): Promise<number> {
  return (await fetch(url, { redirect: 'manual' })).status;
}

for (const backend of backends()) {
  describe(`feedback open (${backend.name})`, () => {
    const server = withServer(backend);
    let secretKey: string;

    before(async () => {
      secretKey = await server.newKey(undefined, 'secret');
    });

    it('when run on the database with --print, then it prints a link on --url that signs in once; --json prints {url, expiresAt}', async () => {
      const printed = await inProcess(['open', '--print', '--url', `${server.url}/`, ...locationOf(server)]);
      expect(printed.code, printed.stderr).to.equal(0);
      const url = printed.stdout.trim();
      expect(url).to.match(new RegExp(`^${server.url}/team/sign-in\\?token=[\\w-]{43}$`));
      expect(printed.stderr).to.include('signs in once');
      expect(await signInStatus(url)).to.equal(303);
      expect(await signInStatus(url), 'a second use').to.equal(410);

      const json = await inProcess(['open', '--json', '--url', server.url, ...locationOf(server)]);
      expect(json.code, json.stderr).to.equal(0);
      const body = JSON.parse(json.stdout) as { url: string; expiresAt: string };
      expect(Object.keys(body)).to.deep.equal(['url', 'expiresAt']);
      expect(Date.parse(body.expiresAt) - Date.now()).to.be.within(9 * 60_000, 11 * 60_000);
      expect(await signInStatus(body.url)).to.equal(303);

      const unknown = await inProcess(['open', '--print', '--project', 'nope', ...locationOf(server)]);
      expect(unknown.code, 'no such project').to.equal(3);
    });

    it('when run with a secret key from FEEDBACK_URL and FEEDBACK_API_KEY, then the link comes from the API, for the key\'s project', async () => {
      const run = await runFeedback(['open', '--print'], { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: secretKey });
      expect(run.code, run.stderr).to.equal(0);
      const url = run.stdout.trim();
      expect(url.startsWith(`${server.url}/team/sign-in?token=`)).to.equal(true);
      expect(await signInStatus(url)).to.equal(303);
      const [row] = await server.sql<{ keyed: boolean }>('select api_key_id is not null as keyed from team_sign_in_links order by created_at desc limit 1');
      expect(row!.keyed, 'the link names the key that asked for it').to.equal(true);
      const named = await runFeedback(['open', '--print', '--name', 'Ada'], { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: secretKey });
      expect(named.code, named.stderr).to.equal(0);
      const [link] = await server.sql<{ name: string | null }>('select name from team_sign_in_links order by created_at desc limit 1');
      expect(link!.name, 'the server keeps who the link is for').to.equal('Ada');

      const project = await runFeedback(['open', '--print', '--project', 'other', '--url', server.url, '--api-key', secretKey]);
      expect(project.code, '--project is for the database').to.equal(2);
    });

    it('when FEEDBACK_API_KEY holds a public key and the directory has no database, then one line says how to get a link, naming no other error', async () => {
      const empty = mkdtempSync(join(tmpdir(), 'feedback-open-'));
      let run: Run;
      try {
        run = await runIn(empty, ['open', '--print'], { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: server.apiKey });
        expect(existsSync(join(empty, '.feedback')), 'nothing is created').to.equal(false);
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
      expect(run.code, 'the key cannot do it: authentication').to.equal(4);
      expect(run.stdout).to.equal('');
      expect(run.stderr.split('\n'), 'one line, then the newline').to.have.length(2);
      expect(run.stderr).to.match(/^feedback: a public key \(pk_\) cannot make a sign-in link, and there is no feedback database in /);
      expect(run.stderr).to.include('--data-dir or --database-url').and.include('feedback keys create --secret');
    });

    it('when FEEDBACK_API_KEY holds a public key where the server keeps its data, then the link is made on the database as with no key', async () => {
      const { dataDir, databaseUrl } = server.database.location;
      if (databaseUrl) {
        // On PostgreSQL the database is always named (DATABASE_URL or the flag): a public key beside it changes nothing.
        const run = await runFeedback(['open', '--print', '--url', server.url, ...locationOf(server)], { FEEDBACK_API_KEY: server.apiKey });
        expect(run.code, run.stderr).to.equal(0);
        expect(await signInStatus(run.stdout.trim())).to.equal(303);
        return;
      }
      // The default data directory, ./.feedback, is the test server's.
      const cwd = mkdtempSync(join(tmpdir(), 'feedback-open-'));
      symlinkSync(dataDir, join(cwd, '.feedback'));
      let run: Run;
      try {
        run = await runIn(cwd, ['open', '--print'], { FEEDBACK_URL: server.url, FEEDBACK_API_KEY: server.apiKey });
      } finally {
        rmSync(cwd, { recursive: true, force: true }); // the link, not the server's data
      }
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stderr).to.not.include('secret key');
      const url = run.stdout.trim();
      expect(url.startsWith(`${server.url}/team/sign-in?token=`)).to.equal(true);
      expect(await signInStatus(url)).to.equal(303);
      const [row] = await server.sql<{ keyed: boolean }>('select api_key_id is not null as keyed from team_sign_in_links order by created_at desc limit 1');
      expect(row!.keyed, 'made on the database: no key asked for it').to.equal(false);
    });

    it('when run without --print where there is a display, then it hands the link to the desktop\'s opener', async function () {
      if (process.platform !== 'linux') this.skip();
      const bin = mkdtempSync(join(tmpdir(), 'feedback-opener-'));
      const seen = join(bin, 'seen');
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);
      const run = await runFeedback(['open', '--url', server.url, ...locationOf(server)], { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':99' });
      expect(run.code, run.stderr).to.equal(0);
      await until(() => existsSync(seen), 10_000, 'the opener to be run');
      expect(readFileSync(seen, 'utf8')).to.equal(run.stdout.trim());

      const without = await runFeedback(['open', '--url', server.url, ...locationOf(server)], { PATH: `${bin}:${process.env.PATH}`, DISPLAY: '', WAYLAND_DISPLAY: '' });
      expect(without.code, 'no display: the link is printed, nothing is opened, no error').to.equal(0);
    });
  });
}
