import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createHttpServer } from '@feedbackd/server/testing';
import { oneBackend } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';

/** Short limits, so that the suite runs in seconds; the assertions allow the check interval and a loaded machine. */
const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
const MARGIN_MS = 3_000;
const DRIPPERS = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw TCP client: what the server sent, and when it closed the connection. */
class RawConnection {
  received = '';
  closedAt: number | undefined;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (this.received += chunk));
    // A write racing the server's close fails: that is the behaviour under test, not an error.
    socket.on('error', () => {});
    // Not `once(socket, 'close')`: that rejects on an 'error' first, and a reset (the server closed
    // while a drip was on its way) is an error before the close. What was received is checked apart.
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.closedAt = Date.now();
        resolve();
      }),
    );
  }

  static async open(url: string, options: { allowHalfOpen?: boolean } = {}): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: options.allowHalfOpen ?? false });
    await once(socket, 'connect');
    return new RawConnection(socket);
  }

  get isClosed(): boolean {
    return this.closedAt !== undefined;
  }

  send(text: string): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(text);
  }

  /** Resolves when `predicate` holds for what was received, or fails after `ms`. */
  async waitFor(predicate: (received: string) => boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate(this.received)) {
      if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms; received ${JSON.stringify(this.received)}`);
      await sleep(20);
    }
  }

  /** The first response received, parsed. */
  response(): { status: number; headers: Record<string, string>; body: unknown } {
    const [head = '', ...rest] = this.received.split('\r\n\r\n');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n').slice(0, length)) };
  }
}

/** Resolves when every connection is closed, or fails after `ms` saying how many stayed open. */
async function allClosed(connections: RawConnection[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${connections.filter((c) => !c.isClosed).length} connections still open after ${ms} ms`)), ms);
  });
  try {
    await Promise.race([Promise.all(connections.map((c) => c.closed)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How many of `connections` are open when a timer of `ms` from now fires. The server's timeouts
 * are timers of this same process, due later, so however busy the machine, this one fires first:
 * an order, not a measured time.
 */
function openAfter(connections: RawConnection[], ms: number): Promise<number> {
  return new Promise((resolve) => setTimeout(() => resolve(connections.filter((c) => !c.isClosed).length), ms));
}

function expectJsonError(connection: RawConnection, status: number, message: RegExp): void {
  const { status: actual, headers, body } = connection.response();
  expect(actual, connection.received).to.equal(status);
  expect(headers['content-type']).to.match(/^application\/json/);
  expect(headers['x-content-type-options']).to.equal('nosniff');
  expect((body as { error: string }).error).to.match(message);
}

// Node's HTTP layer and the edge answer these before any statement runs: one backend (oneBackend).
const backend = oneBackend();

describe(`slow clients and requests Node answers on its own (${backend.name})`, () => {
  const server = withServer(backend, { connectionLimits: { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS } });

  const postHead = (path: string, length: number) =>
    `POST ${path} HTTP/1.1\r\nHost: test\r\nx-api-key: ${server.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it(`when ${DRIPPERS} clients drip their bodies a byte at a time, then each gets the JSON 408 and is closed within the request timeout, and other requests are answered meanwhile`, async () => {
    const body = JSON.stringify({ externalId: 'dripping-user', name: 'x'.repeat(60) });
    const drippers = await Promise.all(Array.from({ length: DRIPPERS }, () => RawConnection.open(server.url)));
    const atHalf = openAfter(drippers, REQUEST_TIMEOUT_MS / 2);
    for (const dripper of drippers) dripper.send(postHead('/api/v1/identify', body.length));
    let sent = 0;
    // The last byte is never sent: whatever the timing, no body is ever complete.
    const drip = setInterval(() => {
      if (sent >= body.length - 1) return;
      for (const dripper of drippers) dripper.send(body[sent]!);
      sent += 1;
    }, 100);
    const answers: { status: number; drippersOpen: number }[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const res = await request(server, 'POST', '/api/v1/identify', { body: { externalId: `ordinary-${i}` } });
        answers.push({ status: res.status, drippersOpen: drippers.filter((d) => !d.isClosed).length });
      }
      await allClosed(drippers, REQUEST_TIMEOUT_MS + MARGIN_MS);
    } finally {
      clearInterval(drip);
      for (const dripper of drippers) dripper.socket.destroy();
    }
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
    expect(answers[0]!.drippersOpen, 'the first ordinary answer came while every dripper was still connected').to.equal(DRIPPERS);
    expect(await atHalf, 'drippers still open at half the request timeout').to.equal(DRIPPERS);
    for (const dripper of drippers) expectJsonError(dripper, 408, /timeout/i);
  });

  it('when a client told 408 sends the rest of its body anyway, then its request is never handled', async () => {
    const title = `late-${randomUUID()}`;
    const body = JSON.stringify({ title });
    const late = await RawConnection.open(server.url, { allowHalfOpen: true });
    late.send(postHead('/api/v1/feedback', body.length) + body.slice(0, 5));
    await late.waitFor((received) => received.includes('\r\n\r\n{'), REQUEST_TIMEOUT_MS + MARGIN_MS, '408');
    // A client that ignores the answer and the end of the stream, as a dripping attacker would.
    late.send(body.slice(5));
    // What is tested is that nothing happens, which no condition announces: the pause is the
    // time a wrongly handled request would have had to show in the table.
    await sleep(500);
    late.socket.destroy();
    expectJsonError(late, 408, /timeout/i);
    const [row] = await server.server.orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from feedback where title = ?', [title]);
    expect(row!.n).to.equal(0);
  });

  it('when a client sends its headers too slowly, then it gets the JSON 408 and is closed within the headers timeout', async () => {
    const slow = await RawConnection.open(server.url);
    const atHalf = openAfter([slow], HEADERS_TIMEOUT_MS / 2);
    slow.send('GET /healthz HTTP/1.1\r\nHost: test\r\n');
    const drip = setInterval(() => slow.send('X'), 100);
    try {
      await allClosed([slow], HEADERS_TIMEOUT_MS + MARGIN_MS);
    } finally {
      clearInterval(drip);
    }
    expectJsonError(slow, 408, /timeout/i);
    expect(await atHalf, 'open at half the headers timeout').to.equal(1);
  });

  it('when a keep-alive connection idles longer than the headers timeout between requests, then its next request is still answered', async () => {
    const client = await RawConnection.open(server.url);
    const healthz = 'GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n';
    const answered = (count: number) => (received: string) => received.split('{"status":"ok"}').length - 1 === count;
    client.send(healthz);
    await client.waitFor(answered(1), MARGIN_MS, 'first answer');
    // The idle time is the subject: longer than the headers timeout, shorter than Node's 5 s keep-alive timeout.
    await sleep(HEADERS_TIMEOUT_MS * 1.5);
    client.send(healthz);
    await client.waitFor(answered(2), MARGIN_MS, 'second answer');
    expect(client.isClosed).to.equal(false);
    // Both answers are 200s. (The status lines, not the whole text: a request id or a date can hold "408".)
    expect(client.received.match(/HTTP\/1\.1 \d{3}/g)).to.deep.equal(['HTTP/1.1 200', 'HTTP/1.1 200']);
    client.socket.destroy();
  });

  it('when an HTTP/1.1 request has no Host header, then it is a JSON 400 with nosniff and the connection is closed', async () => {
    const client = await RawConnection.open(server.url);
    client.send('GET /healthz HTTP/1.1\r\n\r\n');
    await allClosed([client], MARGIN_MS);
    expectJsonError(client, 400, /Host header/);
    expect(client.response().headers['x-request-id']).to.be.a('string');
  });

  it('when an HTTP/1.0 request has no Host header, then it is answered (HTTP/1.0 has no Host)', async () => {
    const client = await RawConnection.open(server.url);
    client.send('GET /healthz HTTP/1.0\r\n\r\n');
    await allClosed([client], MARGIN_MS);
    expect(client.response()).to.deep.include({ status: 200, body: { status: 'ok' } });
  });

  it('when a CONNECT request arrives, then it is a JSON 405 with nosniff and the connection is closed', async () => {
    const client = await RawConnection.open(server.url);
    client.send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    await allClosed([client], MARGIN_MS);
    expectJsonError(client, 405, /CONNECT/);
    expect(client.response().headers).to.have.property('allow');
  });
});

describe('the HTTP server itself: connections per address and slow handlers', () => {
  let server: Server | undefined;
  let handled: string[];
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A server of serve/http-server.ts on port 0 whose handler records each request and answers after `delayMs`. */
  async function start(limits: Parameters<typeof createHttpServer>[1], delayMs = 0): Promise<string> {
    handled = [];
    server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        handled.push(`${req.method} ${req.url}`);
        setTimeout(() => res.setHeader('content-type', 'application/json').end('{"ok":true}'), delayMs);
      });
    }, limits);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('when an address opens more connections than its cap, then the extra one gets a JSON 503 with Retry-After, is closed promptly, and its request is never handled', async () => {
    const url = await start({ maxConnectionsPerIp: 3 });
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await RawConnection.open(url));
    const extra = await RawConnection.open(url);
    extra.send('POST /write HTTP/1.1\r\nHost: test\r\nContent-Length: 2\r\n\r\n{}');
    await allClosed([extra], MARGIN_MS);
    expectJsonError(extra, 503, /Too many open connections/);
    expect(extra.response().headers['retry-after']).to.equal('1');
    // That the refused request is never handled is a thing that does not happen: the pause gives it time to.
    await sleep(200);
    expect(handled).to.deep.equal([]);

    // Once one of its connections closes, the address may open another.
    held.pop()!.socket.destroy();
    let answer: RawConnection | undefined;
    // The server hears of the close a moment later: try until a connection is let in.
    await until(async () => {
      answer = await RawConnection.open(url);
      answer.send('GET /again HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n');
      await allClosed([answer], MARGIN_MS);
      return answer.received.includes('"ok":true');
    }, 10_000, 'a connection let in again');
    expect(answer!.received).to.include('"ok":true');
    expect(handled).to.deep.equal(['GET /again']);
    for (const connection of held) connection.socket.destroy();
  });

  it('when a handler takes longer than the request timeout, then its answer still arrives (the timeout is about the request arriving)', async () => {
    const url = await start({ headersTimeoutMs: 300, requestTimeoutMs: 500 }, 1_500);
    const res = await fetch(`${url}/slow`, { method: 'POST', body: '{}' });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ ok: true });
  });
});
