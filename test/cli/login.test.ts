import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedBackend } from '../helpers/backends.js';
import { runFeedback as feedback } from '../helpers/cli-process.js';
import { withServer } from '../helpers/test-server.js';

describe('feedback login, whoami and logout', function () {
  const server = withServer(embeddedBackend);
  let config: string;
  /** A spawned CLI with its own config directory and none of the API variables. */
  const cli = (args: string[], env: Record<string, string> = {}) => feedback(args, { XDG_CONFIG_HOME: config, ...env });
  const file = () => join(config, 'feedback', 'config.json');

  beforeEach(() => {
    config = mkdtempSync(join(tmpdir(), 'feedback-login-'));
  });
  afterEach(() => rmSync(config, { recursive: true, force: true }));

  it('when login is given a key the server accepts, then it stores it mode 0600 and list needs no flag or variable', async () => {
    const login = await cli(['login', '--url', server.url, '--api-key', server.apiKey]);
    expect(login.code, login.stderr).to.equal(0);
    expect(login.stdout + login.stderr, 'the key is never printed in full').not.to.include(server.apiKey);
    expect(statSync(file()).mode & 0o777).to.equal(0o600);
    expect(statSync(join(config, 'feedback')).mode & 0o777).to.equal(0o700);
    expect(JSON.parse(readFileSync(file(), 'utf8'))).to.deep.equal({ url: server.url, apiKey: server.apiKey });
    const list = await cli(['list', '--json']);
    expect(list.code, list.stderr).to.equal(0);
    expect(JSON.parse(list.stdout)).to.have.property('items');
  });

  it('when login is given a key the server refuses, then it exits 4 and stores nothing', async () => {
    const login = await cli(['login', '--url', server.url, '--api-key', `pk_${'Z'.repeat(40)}`]);
    expect(login.code).to.equal(4);
    expect(existsSync(file())).to.equal(false);
    const unreachable = await cli(['login', '--url', 'http://127.0.0.1:9', '--api-key', server.apiKey, '--retries', '0']);
    expect(unreachable.code).to.equal(1);
    expect(existsSync(file())).to.equal(false);
  });

  it('when whoami runs, then it names the server and the masked key with where each came from: flags beat the environment, which beats the login', async () => {
    expect((await cli(['login', '--url', server.url, '--api-key', server.apiKey])).code).to.equal(0);
    const stored = await cli(['whoami', '--json']);
    expect(stored.code, stored.stderr).to.equal(0);
    const fromLogin = JSON.parse(stored.stdout) as Record<string, unknown>;
    expect(fromLogin).to.deep.include({ url: server.url, urlSource: 'login', keySource: 'login', accepted: true, config: file() });
    expect(fromLogin.key).to.match(/^pk_\w{4}…\w{2}$/);
    expect(stored.stdout).not.to.include(server.apiKey);

    const bad = `pk_${'Y'.repeat(40)}`;
    const fromEnv = await cli(['whoami', '--json'], { FEEDBACK_API_KEY: bad });
    expect(fromEnv.code, 'the environment key wins, and the server refuses it').to.equal(4);
    const fromFlag = await cli(['whoami', '--json', '--api-key', server.apiKey], { FEEDBACK_API_KEY: bad });
    expect(fromFlag.code, fromFlag.stderr).to.equal(0);
    expect(JSON.parse(fromFlag.stdout)).to.deep.include({ keySource: 'flag' });

    const text = await cli(['whoami']);
    expect(text.stdout).to.match(/^Server +http:\/\/127\.0\.0\.1:\d+ \(from `feedback login`\)$/m).and.match(/^API key +pk_\w{4}…\w{2} \(from `feedback login`\)$/m);
  });

  it('when --url names another server, then the stored key is not sent to it', async () => {
    expect((await cli(['login', '--url', server.url, '--api-key', server.apiKey])).code).to.equal(0);
    const other = await cli(['list', '--url', 'http://127.0.0.1:9']);
    expect(other.code).to.equal(2);
    expect(other.stderr).to.match(/no API key/);
  });

  it('when logout runs, then the file is gone and the API commands ask for a key again', async () => {
    expect((await cli(['login', '--url', server.url, '--api-key', server.apiKey])).code).to.equal(0);
    const out = await cli(['logout', '--json']);
    expect(JSON.parse(out.stdout)).to.deep.equal({ removed: true, config: file() });
    expect(existsSync(file())).to.equal(false);
    const again = await cli(['logout']);
    expect(again.code).to.equal(0);
    expect(again.stdout).to.match(/^Not logged in/);
    const whoami = await cli(['whoami']);
    expect(whoami.code).to.equal(4);
    expect(whoami.stderr).to.match(/^feedback: not logged in/);
  });
});
