import { expect } from 'chai';
import fc from 'fast-check';
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { backends } from '../helpers/backends.js';
import { operationFinder, type DocumentedOperation } from '../helpers/openapi-operations.js';
import { request, startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * Generated and mutated requests against every endpoint (issue: hostile input). Whatever arrives,
 * the answer is never a 5xx, never a hang, always JSON with the error shape for a 4xx, always
 * nosniff, and its status is one the OpenAPI document lists for the operation (issue 37); and a
 * rejected request changes no row. The seed is fixed, so a failure replays.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const TABLES = ['projects', 'api_keys', 'end_users', 'feedback', 'feedback_counters', 'votes', 'comments', 'feedback_stats', 'idempotency_keys'];
const FINGERPRINT = `select ${TABLES.map((table) => `(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${table} t)`).join(" || ',' || ")} as print`;

/** Strings that have broken servers: control characters, lone surrogates, separators, BOMs, long runs. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('\u0000', '\u0001', '\u001f', '\u007f', '\ud800', '\udfff', '\u2028', '\ufeff', '%', '\\', '"', "'", 'a', 'é', '😀'), maxLength: 40 }),
  fc.constantFrom('', ' ', '__proto__', 'constructor', 'null', '0', '-1', '1e309', 'x'.repeat(5_000), 'new', 'bug', 'votes'),
);
const nastyKey = fc.oneof(nastyString, fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'));
const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nastyKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;
/** A value wrapped `depth` times in arrays or objects (JSON nested past any sane depth). */
const deeplyNested = fc.tuple(fc.integer({ min: 1, max: 300 }), fc.boolean(), jsonish).map(([depth, arrays, inner]) => {
  let value = inner;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { nested: value };
  return value;
});

const validUser = { externalId: 'fuzz-user', name: 'Fuzz', email: 'fuzz@example.com', avatarUrl: 'https://example.com/a.png', metadata: { plan: 'pro' } };
const validBodies: Record<string, Record<string, unknown>> = {
  submit: { title: 'A title', description: 'A description', type: 'bug', metadata: { a: 1 }, endUser: validUser },
  vote: { endUser: validUser },
  identify: validUser,
};
/** A valid body with some fields replaced by hostile values (at the top level or inside endUser). */
const mutatedBody = (kind: keyof typeof validBodies) =>
  fc
    .tuple(
      fc.array(fc.tuple(fc.constantFrom(...Object.keys(validBodies[kind]!), 'endUser', '__proto__', 'status', 'voteCount', 'id'), fc.oneof(jsonish, deeplyNested)), { maxLength: 3 }),
      fc.array(fc.tuple(fc.constantFrom(...Object.keys(validUser), '__proto__'), fc.oneof(jsonish, deeplyNested)), { maxLength: 2 }),
    )
    .map(([top, inUser]) => {
      const body: Record<string, unknown> = JSON.parse(JSON.stringify(validBodies[kind]));
      for (const [key, value] of top) Object.defineProperty(body, key, { value, enumerable: true, configurable: true, writable: true });
      if (typeof body.endUser === 'object' && body.endUser !== null && !Array.isArray(body.endUser)) {
        for (const [key, value] of inUser) Object.defineProperty(body.endUser, key, { value, enumerable: true, configurable: true, writable: true });
      }
      return body;
    });

/** Percent-encodes every UTF-8 byte (encodeURIComponent throws on a lone surrogate; Buffer makes it U+FFFD). */
const percentEncoded = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/vnd.api+json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '', 'application/json; charset="', '*/*'];
const ENCODINGS = ['', 'identity', 'gzip', 'deflate', 'br', 'x-unknown', 'gzip, gzip'];

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

for (const backend of backends()) {
  describe(`Hostile input: ${RUNS} generated requests per property, never a 5xx (${backend.name})`, function () {
    let server: TestServer;
    let itemId: string;
    let find: (method: string, path: string) => DocumentedOperation | undefined;
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    let tried = 0;
    const statuses = new Map<number, number>();
    const print = async () => (await server.server.sql.query<{ print: string }>('fuzz_print', FINGERPRINT, []))[0]!.print;

    before(async () => {
      // Behind a trusted proxy, each request from an address of its own: the per-address limit on
      // failed authentication (tested on its own) would otherwise turn most later requests into 429s.
      server = await startTestServer(backend, { trustProxy: 1 });
      itemId = (await request(server, 'POST', '/api/v1/feedback', { body: validBodies.submit })).body.feedback.id;
      find = operationFinder((await request(server, 'GET', '/api/v1/openapi.json', { apiKey: null })).body);
    });
    after(async () => {
      agent.destroy();
      await server?.close();
      const seen = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ');
      console.log(`      (${backend.name}: ${tried} requests tried; answers ${seen})`);
    });

    /** Sends one request and checks the answer; rejected requests must leave every table as it was. */
    const check = async ({ method, path, headers = {}, body }: Sent): Promise<void> => {
      const before = await print();
      tried += 1;
      const from = `10.${(tried >> 16) & 255}.${(tried >> 8) & 255}.${tried & 255}`;
      const { status, responseHeaders, text } = await send({ method, path, headers: { 'x-api-key': server.apiKey, 'x-forwarded-for': from, ...headers }, body });
      const label = `${method} ${path} ${JSON.stringify(headers)} ${String(body).slice(0, 200)} -> ${status} ${text.slice(0, 300)}`;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      expect(status, label).to.be.below(500);
      expect(responseHeaders['x-content-type-options'], label).to.equal('nosniff');
      // A request to an operation of the document (not an unknown path, another method or OPTIONS).
      const operation = find(method, path);
      if (operation) expect([...operation.statuses], `not listed by ${operation.operationId}: ${label}`).to.include(status);
      if (method === 'HEAD' || status === 204) {
        expect(text, label).to.equal('');
        return;
      }
      const parsed: unknown = JSON.parse(text);
      if (status >= 400) {
        expect(parsed, label).to.be.an('object');
        expect(typeof (parsed as { error?: unknown }).error, label).to.equal('string');
        expect(Object.keys(parsed as object).every((key) => key === 'error' || key === 'details'), label).to.equal(true);
        expect(await print(), `a rejected request changed rows: ${label}`).to.equal(before);
      }
    };

    const send = (sent: Sent): Promise<{ status: number; responseHeaders: Record<string, string | string[] | undefined>; text: string }> =>
      new Promise((resolve, reject) => {
        const url = new URL(server.url);
        const req = httpRequest(
          { agent, host: url.hostname, port: url.port, method: sent.method, path: sent.path, headers: sent.headers, timeout: 10_000 },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, responseHeaders: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`no answer within 10 s: ${sent.method} ${sent.path}`)));
        req.on('error', reject);
        req.end(sent.body);
      });
    const json = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
    const assertProperty = (property: fc.IAsyncPropertyWithHooks<[Sent]> | fc.IAsyncProperty<[Sent]>) => fc.assert(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });

    it('when POST bodies of any JSON shape, depth and content reach submit, vote and identify, then every answer is below 500 and rejected ones change nothing', async () => {
      const body = fc.oneof(jsonish, deeplyNested, mutatedBody('submit'), mutatedBody('vote'), mutatedBody('identify'));
      const path = fc.constantFrom('/api/v1/feedback', `/api/v1/feedback/${itemId}/vote`, '/api/v1/identify');
      await assertProperty(fc.asyncProperty(fc.tuple(path, body).map(([p, b]): Sent => ({ method: 'POST', path: p, ...json(b) })), check));
    });

    it('when query strings, path ids and methods are odd, then every answer is below 500', async () => {
      const raw = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', '.', '%', '%00', '%zz', '%ff', '%c3%28', '&', '=', '[', ']', ',', '+', '%2F', '%5B', '%00'), maxLength: 30 });
      const param = fc.tuple(fc.constantFrom('page', 'limit', 'status', 'type', 'sortBy', 'search', 'endUserId', '__proto__', 'status[]', 'page[0]', 'x'), fc.oneof(raw, nastyString.map(percentEncoded)));
      const query = fc.array(param, { maxLength: 5 }).map((params) => params.map(([key, value]) => `${key}=${value}`).join('&'));
      const id = fc.oneof(fc.constant(itemId), fc.uuid(), raw, nastyString.map(percentEncoded), fc.constant(itemId.toUpperCase()), fc.constant(`${itemId}%00`));
      const sent = fc.tuple(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'), fc.constantFrom('list', 'detail', 'vote', 'identify', 'other'), id, query).map(
        ([method, where, theId, theQuery]): Sent => {
          const path = { list: '/api/v1/feedback', detail: `/api/v1/feedback/${theId}`, vote: `/api/v1/feedback/${theId}/vote`, identify: '/api/v1/identify', other: `/api/v1/${theId}` }[where];
          return { method, path: `${path}?${theQuery}`, ...(method === 'POST' ? json({}) : {}) };
        },
      );
      await assertProperty(fc.asyncProperty(sent, check));
    });

    it('when bodies arrive as raw bytes under odd content types, encodings, sizes and keys, then every answer is below 500', async () => {
      const bytes = fc.oneof(
        fc.uint8Array({ maxLength: 200 }).map((array) => Buffer.from(array)),
        fc.constantFrom(Buffer.from('{"title":"\\ud800"}'), Buffer.from('{"title":"a"'), Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), Buffer.from('\ufeff{"title":"bom"}'), Buffer.from('null'), Buffer.from('[]'), Buffer.from('"x"'), Buffer.from('1'), Buffer.from(`{"title":"${'x'.repeat(1_100_000)}"}`)),
        jsonish.map((value) => Buffer.from(JSON.stringify(value) ?? '')),
        mutatedBody('submit').map((value) => gzipSync(JSON.stringify(value))),
      );
      const sent = fc
        .tuple(
          fc.constantFrom('/api/v1/feedback', `/api/v1/feedback/${itemId}/vote`, '/api/v1/identify'),
          bytes,
          fc.constantFrom(...CONTENT_TYPES),
          fc.constantFrom(...ENCODINGS),
          fc.option(fc.string({ unit: fc.constantFrom('a', 'Z', '-', '~', ' ', '!'), maxLength: 300 }), { nil: undefined }),
          fc.option(fc.constantFrom('', 'pk_short', `pk_${'A'.repeat(40)}`, 'sk_nope', ' '), { nil: undefined }),
        )
        .map(([path, body, contentType, encoding, idempotencyKey, apiKey]): Sent => {
          const headers: Record<string, string> = {};
          if (contentType) headers['content-type'] = contentType;
          if (encoding) headers['content-encoding'] = encoding;
          if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
          if (apiKey !== undefined) headers['x-api-key'] = apiKey;
          return { method: 'POST', path, headers, body };
        });
      await assertProperty(fc.asyncProperty(sent, check));
    });

    it('when the HTTP itself is malformed, then the answer is still a JSON 4xx', async () => {
      const port = Number(new URL(server.url).port);
      const cases = [
        'GET /api/v1/feedback HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
        'POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
        'POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{}',
        `GET /api/v1/feedback HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        'GET /api/v1/\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
        'NOT-HTTP\r\n\r\n',
      ];
      for (const raw of cases) {
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => socket.end(raw));
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString('latin1')));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
          socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
        });
        tried += 1;
        const label = `${JSON.stringify(raw.slice(0, 80))} -> ${answer.slice(0, 200)}`;
        expect(answer, label).to.match(/^HTTP\/1\.1 4\d\d /);
        expect(answer.toLowerCase(), label).to.include('x-content-type-options: nosniff');
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error?: unknown };
        expect(typeof body.error, label).to.equal('string');
      }
    });
  });
}
