import { expect } from 'chai';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { Spool, spoolLines } from '@feedbackd/server/testing';

/** Issue 24: what an export or an import keeps aside so that no transaction waits on a pipe. */
describe('transfer spool', () => {
  /** What this process's open spool files are called (Linux): "… (deleted)" once they have no name. */
  const openSpools = () =>
    existsSync('/proc/self/fd')
      ? readdirSync('/proc/self/fd')
          .map((fd) => {
            try {
              return readlinkSync(`/proc/self/fd/${fd}`);
            } catch {
              return '';
            }
          })
          .filter((target) => target.includes('feedback-spool-'))
      : undefined;

  it('when chunks are appended, then they come back the same and in order, and no file name is left to open', async () => {
    const spool = await Spool.open();
    try {
      const open = openSpools();
      if (open) {
        expect(open, 'one spool open').to.have.length(1);
        expect(open[0], 'the spool has no name from the start').to.match(/ \(deleted\)$/);
      }
      const chunks = ['{"type":"header"}\n', 'é ☾ “quoted”\n'.repeat(1000), 'last\n'];
      for (const [i, text] of chunks.entries()) await spool.append(text, i);
      const back: { text: string; records: number }[] = [];
      for await (const chunk of spool.chunks()) back.push(chunk);
      expect(back).to.deep.equal(chunks.map((text, records) => ({ text, records })));
    } finally {
      await spool.close();
    }
  });

  it('when lines are spooled, then they are read to their end first and come back the same, empty lines and chunk boundaries included', async () => {
    // More than one chunk (about 1 MB each) of lines, with empty ones and multi-byte characters.
    const lines = Array.from({ length: 30_000 }, (_, i) => (i % 1000 === 0 ? '' : `{"n":${i},"text":"ünïcode ${'x'.repeat(i % 70)}"}`));
    let read = 0;
    async function* source(): AsyncGenerator<string> {
      for (const line of lines) {
        read += 1;
        yield line;
      }
    }
    const spooled = await spoolLines(source());
    try {
      expect(read, 'every line is read before spoolLines returns').to.equal(lines.length);
      const back: string[] = [];
      for await (const line of spooled.lines) back.push(line);
      expect(back.length).to.equal(lines.length);
      expect(back.join('\n') === lines.join('\n'), 'the lines differ').to.equal(true);
    } finally {
      await spooled.close();
    }
  });
});
