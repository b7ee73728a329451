import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { copyEmbeddedTemplate } from '../helpers/backends.js';
import { endGroup, groupAlive, track } from '../helpers/child-processes.js';
import { startServe } from '../helpers/cli-process.js';
import { scratchRoot } from '../helpers/scratch.js';
import { until } from '../helpers/until.js';

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  await until(condition, 30_000, what);
}

describe('processes a test leaves behind', () => {
  let leftPid: number | undefined;
  let leftDir: string | undefined;
  // The data directory of the serve left running, once the root hooks have ended it (in /dev/shm it is memory).
  after(() => {
    if (leftDir) rmSync(leftDir, { recursive: true, force: true });
  });

  it('when a test starts `feedback serve --workers 2` and ends without stopping it, then it passes (the next test checks what is left)', async () => {
    const dataDir = copyEmbeddedTemplate(mkdtempSync(join(scratchRoot(), 'feedback-test-')));
    leftDir = dataDir;
    const server = await startServe(['--workers', '2', '--data-dir', dataDir]);
    leftPid = server.child.pid;
    expect(groupAlive(leftPid!), 'the serve and its workers run').to.equal(true);
    // Not stopped on purpose: as a test that failed or timed out halfway would leave it.
  });

  it('when the test before left its serve running, then the serve and all its workers are gone once that test ended', async function () {
    // Only meaningful after the test above; run alone (--grep), there is nothing to check.
    if (leftPid === undefined) this.skip();
    await waitFor(() => !groupAlive(leftPid!), 'the process group of the serve is gone');
  });

  it('when a child ignores SIGTERM, then ending it still ends its whole group, grandchildren included', async () => {
    // A parent that ignores SIGTERM and has a grandchild that ignores it too, both in the parent's group.
    const script = `
      const { spawn } = require('node:child_process');
      process.on('SIGTERM', () => {});
      const grandchild = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
      console.log(grandchild.pid);
      setInterval(() => {}, 1000);
    `;
    const child = track(spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'], detached: true }));
    let stdout = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    await waitFor(() => /\d+\n/.test(stdout), 'the grandchild has started');
    const grandchildPid = Number(stdout.trim());
    await endGroup(child);
    expect(groupAlive(child.pid!), 'the group is gone').to.equal(false);
    expect(() => process.kill(grandchildPid, 0), 'the grandchild is gone').to.throw().with.property('code', 'ESRCH');
  });
});
