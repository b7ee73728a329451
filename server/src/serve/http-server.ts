/**
 * Node's HTTP server for a serving process: the limits on its connections, the raw answers it
 * writes before the app sees a request, listen, its base URL, and the drain when it stops.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../logger.js';
import { DEFAULT_CONNECTION_LIMITS } from '../serve-defaults.js';

/**
 * How long a caller may take to send a request, and how many connections one address may hold
 * open. A client that drips its request a byte at a time, or opens thousands of connections,
 * would otherwise hold a descriptor and memory per connection for as long as it likes.
 */
export interface ConnectionLimits {
  /** The request line and headers must arrive within this time of the request's first byte (or of the connection's opening). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this time of its first byte. Not the handler's time: once the request is in, it is never cut. */
  requestTimeoutMs: number;
  /** Open connections (idle keep-alive ones included) one remote address may hold on one serving process; 0: no cap. */
  maxConnectionsPerIp: number;
}

/**
 * The defaults (serve-defaults.ts says why they are what they are) with what the operator set; the
 * headers' time never exceeds the request's (Node refuses that).
 */
export function connectionLimits(given: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...withoutUndefined(given) };
  return { ...limits, headersTimeoutMs: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) };
}

/**
 * Node checks the timeouts on an interval (30 s by default), so a request can outlive its time by up
 * to that much. Checked every second, or a tenth of the shorter time when that is under 10 s, a
 * request is cut within its time plus at most a second.
 */
function timeoutCheckIntervalMs(limits: ConnectionLimits): number {
  return Math.max(20, Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 10)));
}

/**
 * The HTTP server of a serving process. Whatever Node answers on its own before the app sees a
 * request (a malformed request, one too slow to arrive, CONNECT, a connection over the address's
 * cap) still gets the API's JSON error shape and nosniff, not a bare-text answer or a silent close.
 */
export function createHttpServer(handler: RequestListener, given: Partial<ConnectionLimits> = {}): Server {
  const limits = connectionLimits(given);
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: timeoutCheckIntervalMs(limits),
      // Node's own answer to a request without Host is an empty text 400: the app answers it in JSON
      // (http/edge.ts).
      requireHostHeader: false,
    },
    handler,
  );
  const isRefused = capConnectionsPerAddress(server, limits.maxConnectionsPerIp);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET' || isRefused(socket) || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      answerAndClose(socket, rawJsonResponse(408, 'Request Timeout', 'Request timeout: the request was not received in time'));
      return;
    }
    // The parser stays failed and hands nothing more to the app, so the connection may linger.
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'Request header fields too large'] : [400, 'Bad Request', 'Malformed HTTP request'];
    answerAndLinger(socket, rawJsonResponse(status, reason, message));
  });
  // Without a listener Node closes a CONNECT's socket without a word. This server is no proxy: an
  // empty Allow says that the target (a host and port, not one of our paths) allows no method.
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    if (isRefused(socket)) return socket.destroy();
    answerAndLinger(socket, rawJsonResponse(405, 'Method Not Allowed', 'Method CONNECT is not allowed: this server is not a proxy', { Allow: '' }));
  });
  return server;
}

/**
 * Whether a response on this connection has begun: a second answer written after it would corrupt
 * the stream, so such a connection is only closed (as Node does).
 */
function responseStarted(socket: Socket): boolean {
  return (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent === true;
}

/** Listens and resolves with the port actually bound (port 0 picks a free one). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** The base URL of a server listening on host:port. */
export function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Stops accepting connections and lets the requests in flight finish, for up to `timeoutMs`;
 * after that the remaining connections are cut.
 */
export async function drain(server: Server, timeoutMs: number, logger: Logger): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive connections would hold close() open until they time out.
  server.closeIdleConnections();
  // A connection that finishes its request later is closed after that response (Connection: close).
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), timeoutMs);
  });
  const cut = await Promise.race([closed.then(() => false), timedOut]);
  clearTimeout(timer);
  clearInterval(idleSweep);
  if (cut) {
    logger.warn('drain timeout: closing the remaining connections', { ms: timeoutMs });
    server.closeAllConnections();
    await closed;
  }
}

/** A complete JSON error response for writing straight to a socket, outside any request. */
function rawJsonResponse(status: number, reason: string, message: string, headers: Record<string, string> = {}): string {
  const body = JSON.stringify({ error: message });
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n${extra}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/**
 * Writes a response and closes the connection at once, for a request that timed out. Closing (not
 * just ending our side) matters: on a half-closed socket Node goes on reading the request, and a
 * client told 408 that finished its body anyway would have it handled after all, a write the client
 * believes failed.
 */
function answerAndClose(socket: Socket, response: string): void {
  // A short write to a socket with nothing queued goes to the kernel at once, before the close.
  socket.write(response);
  socket.destroy();
}

/** How long a connection answered by answerAndLinger may stay half-closed. */
const LINGER_MS = 1_000;

/**
 * Writes a response and ends our side, then closes within a second, for a connection whose request
 * can no longer be handled (its parsing failed, or it is refused or a CONNECT). Closing at once over
 * request bytes not yet read would reset the connection, and the client might never read why.
 */
function answerAndLinger(socket: Socket, response: string): void {
  socket.end(response);
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}

/**
 * Caps the open connections of each remote address. A connection over the cap is answered at once
 * with a JSON 503 and Retry-After (the client may come back when one of its connections closes),
 * and never reaches Node's HTTP handling: the cap stands in front of the server's own connection
 * listener, so no request sent there is ever parsed or handled while it lingers, and the requests
 * of the connections let through pay nothing for the cap. The function returned says whether a
 * socket was refused.
 */
function capConnectionsPerAddress(server: Server, max: number): (socket: Socket) => boolean {
  const refused = new WeakSet<Socket>();
  if (max <= 0) return () => false;
  // http.Server handles a connection in the one 'connection' listener its constructor adds.
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  if (httpListeners.length !== 1) throw new Error(`expected one HTTP connection listener, found ${httpListeners.length}`);
  const handleHttp = httpListeners[0]!;
  server.removeListener('connection', handleHttp);
  const open = new Map<string, number>();
  const refusal = rawJsonResponse(503, 'Service Unavailable', `Too many open connections from this address (at most ${max})`, { 'Retry-After': '1' });
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return handleHttp.call(server, socket);
    const count = open.get(address) ?? 0;
    if (count >= max) {
      refused.add(socket);
      answerAndLinger(socket, refusal);
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
    handleHttp.call(server, socket);
  });
  return (socket) => refused.has(socket);
}

function withoutUndefined<T extends object>(value: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
