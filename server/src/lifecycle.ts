import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { answerAndClose, answerAndLinger, capConnectionsPerAddress, connectionLimits, rawJsonResponse, timeoutCheckIntervalMs, type ConnectionLimits } from './connection-limits.js';
import type { Logger } from './logger.js';

/**
 * The HTTP server of a serving process. Whatever Node answers on its own before the app sees a
 * request (a malformed request, one too slow to arrive, CONNECT, a connection over the address's
 * cap) still gets the API's JSON error shape and nosniff, not a bare-text answer or a silent close.
 */
export function createHttpServer(handler: RequestListener, given: Partial<ConnectionLimits> = {}): Server {
  const limits = connectionLimits(given);
  let isRefused: (socket: Socket) => boolean = () => false;
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: timeoutCheckIntervalMs(limits),
      // Node's own answer to a request without Host is an empty text 400: the app answers it in JSON
      // (http/middleware/require-host.ts).
      requireHostHeader: false,
    },
    // A request on a connection already refused is never handled: its client was told 503.
    (request, response) => {
      if (!isRefused(request.socket)) handler(request, response);
    },
  );
  isRefused = capConnectionsPerAddress(server, limits.maxConnectionsPerIp);
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
