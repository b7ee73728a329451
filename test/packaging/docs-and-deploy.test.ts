import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFeedback as feedback, spawnRun } from '../helpers/cli-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const UNIT = join(ROOT, 'docs', 'deploy', 'feedback.service');
const DOCS = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];

describe('the docs and deployment files', () => {
  it('when the docs show an npx or npm install command, then it can only run this project: never a bare `npx feedback` or a registry install of @feedbackd', () => {
    for (const doc of DOCS) {
      const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
      lines.forEach((line, i) => {
        const where = `${doc}:${i + 1}: ${line}`;
        // A warning that names the dangerous form is fine; an instruction to run it is not.
        const warning = /Never run `npx feedback`|stopping `npx feedback serve`/.test(line);
        for (const run of line.matchAll(/npx((?: +-[\w=-]+)*) +(feedback|@feedbackd)/g)) {
          if (!warning) expect(run[1], `${where}: npx must not be allowed to download`).to.include('--no-install');
        }
        expect(line, where).not.to.match(/npm (install|i) +@feedbackd\//);
      });
    }
  });

  it('when feedback serve --help lists its environment variables, then operations.md documents every one', async () => {
    const help = await feedback(['serve', '--help']);
    const variables = [...help.stdout.matchAll(/env:\s+(\w+)/g)].map((m) => m[1]!);
    expect(variables.length).to.be.greaterThan(8);
    const operations = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
    for (const name of variables) expect(operations, name).to.include(`| \`${name}\` |`);
  });

  it('when systemd-analyze is installed, then the systemd unit verifies without a message about it', async function () {
    const probe = await spawnRun('sh', ['-c', 'command -v systemd-analyze']);
    if (probe.code !== 0) this.skip();
    const result = await spawnRun('systemd-analyze', ['verify', UNIT]);
    const aboutUnit = (result.stdout + result.stderr).split('\n').filter((line) => line.includes('feedback.service'));
    expect(aboutUnit, result.stderr).to.deep.equal([]);
    expect(result.code, result.stderr).to.equal(0);
    // It starts the installed binary itself (signals reach the server), never through npx or npm.
    const unit = readFileSync(UNIT, 'utf8');
    expect(unit).to.match(/^ExecStart=\/usr\/bin\/node \/opt\/feedback\/node_modules\/@feedbackd\/cli\/bin\/feedback\.js serve$/m);
    const bin = (JSON.parse(readFileSync(join(ROOT, 'cli', 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.feedback;
    expect(bin).to.equal('./bin/feedback.js');
  });
});
