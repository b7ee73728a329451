import { expect } from 'chai';
import { spawnSync } from 'node:child_process';

/**
 * Runs `script` (an ES module that imports the built server package) in a child process, whose
 * stderr is a pipe as in production, and returns the JSON lines it wrote there.
 */
function stderrLines(script: string): Record<string, unknown>[] {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(result.status, result.stderr).to.equal(0);
  return result.stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('logger: the request line', () => {
  it('when the HTTP edge writes the request line by hand to the JSON stream, then it is the line pino writes for the same fields', () => {
    const lines = stderrLines(`
      import { createLogger } from '@feedbackd/server';
      import { requestLogLine } from '@feedbackd/server/testing';
      const logger = createLogger({ level: 'info', pretty: false });
      if (!logger.requestLines) throw new Error('the JSON logger hands over no stream for the request line');
      const request = requestLogLine(logger);
      const entries = [
        { id: 'f2b0c3a8-2d44-4f61-9d0e-4c1b7f0e9a11', method: 'POST', path: '/api/v1/feedback/7/vote', status: 200, ms: 1.3 },
        { id: 'caller:id.1', method: 'GET', path: '/api/v1/feedback/"quoted"\\\\back\\u00e9\\u{1F389}\\u2028', status: 404, ms: 0 },
      ];
      for (const entry of entries) {
        request(entry.id, entry.method, entry.path, entry.status, entry.ms);
        logger.info('request', { ...entry });
      }
      logger.flush();
    `);
    expect(lines).to.have.length(4);
    for (const i of [0, 2]) {
      const [byHand, byPino] = [lines[i]!, lines[i + 1]!];
      expect(byHand.time).to.be.a('string');
      // The same keys in the same order and the same values; only the time may be a millisecond apart.
      expect(Object.keys(byHand)).to.deep.equal(Object.keys(byPino));
      expect({ ...byHand, time: undefined }).to.deep.equal({ ...byPino, time: undefined });
    }
    expect(lines[2]!.path).to.equal('/api/v1/feedback/"quoted"\\back\u00e9\u{1F389}\u2028');
    expect(lines[0]).to.include({ level: 'info', msg: 'request', method: 'POST', status: 200, ms: 1.3 });
  });

  it('when the level is above info, then no request line is written', () => {
    const lines = stderrLines(`
      import { createLogger } from '@feedbackd/server';
      import { requestLogLine } from '@feedbackd/server/testing';
      const logger = createLogger({ level: 'warn', pretty: false });
      requestLogLine(logger)('a', 'GET', '/', 200, 1);
      logger.warn('still written');
      logger.flush();
    `);
    expect(lines.map((line) => line.msg)).to.deep.equal(['still written']);
  });
});
