/**
 * `npm run request-files`: how many of the project's own source files run code for one request of
 * each kind (issue 26 counts them: a vote, a submit and a list should each cross at most 10).
 *
 * It starts a server in this process on a new embedded database, warms each request up (so that
 * module loading and first-time set-up are not counted), then takes V8's precise coverage around
 * one more of it and lists the files of sdk/, server/ and cli/ with a function that ran. Reads the
 * built packages: run `npm run build` first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '@feedbackd/server';
import { silentLogger } from '@feedbackd/server/testing';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OWN = /\/(sdk|server|cli)\/dist\//;

const dataDir = mkdtempSync(join(tmpdir(), 'feedback-request-files-'));
let apiKey = '';
const server = await startServer({ dataDir, port: 0, host: '127.0.0.1', logger: silentLogger, rateLimit: 'off', onFirstKey: (key) => (apiKey = key) });
const session = new Session();
session.connect();
try {
  const send = (method: string, path: string, body?: unknown) =>
    fetch(server.url + path, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as { feedback?: { id: string } } }));
  const item = (await send('POST', '/api/v1/feedback', { title: 'Counted' })).body.feedback!.id;
  const requests: Record<string, () => Promise<{ status: number }>> = {
    vote: () => send('POST', `/api/v1/feedback/${item}/vote`, {}),
    submit: () => send('POST', '/api/v1/feedback', { title: 'Another one', endUser: { externalId: 'counted-user' } }),
    list: () => send('GET', '/api/v1/feedback?sortBy=votes'),
  };
  await session.post('Profiler.enable');
  for (const [name, run] of Object.entries(requests)) {
    for (let i = 0; i < 20; i++) await run();
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const { status } = await run();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    await session.post('Profiler.stopPreciseCoverage');
    const files = result
      .filter((script) => OWN.test(script.url) && script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
      .map((script) => relative(ROOT, fileURLToPath(script.url)))
      .sort();
    process.stdout.write(`${name} (HTTP ${status}): ${files.length} files\n${files.map((file) => `  ${file}`).join('\n')}\n`);
  }
} finally {
  session.disconnect();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
