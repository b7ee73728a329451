import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcess } from '../helpers/cli-process.js';

/** `feedback serve --smtp-url --mail-from --notify-window` (docs/cli.md): wrong values exit with 2 before a database is opened. */
describe('feedback serve: the mail flags', () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'feedback-mail-flags-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when --smtp-url comes without --mail-from, then serve exits with 2 and says what is missing', async () => {
    const run = await inProcess(['serve', '--smtp-url', 'smtp://127.0.0.1:2525', '--data-dir', dataDir, '--port', '0']);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('--mail-from is needed with --smtp-url');
  });

  it('when --notify-window is not a whole number of seconds, then serve exits with 2', async () => {
    for (const given of ['-1', 'soon', '1.5', '700000']) {
      const run = await inProcess(['serve', '--notify-window', given, '--data-dir', dataDir, '--port', '0']);
      expect(run.code, given).to.equal(2);
      expect(run.stderr, given).to.include('--notify-window');
    }
  });

  it('when --smtp-url is not smtp:// or smtps://, then serve exits with 2 without showing a password', async () => {
    const run = await inProcess(['serve', '--smtp-url', 'http://user:secret@mail.example.com', '--mail-from', 'Acme <a@acme.example>', '--data-dir', dataDir, '--port', '0']);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('--smtp-url must be smtp://').and.not.include('secret');
  });
});
