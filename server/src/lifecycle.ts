import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from './logger.js';

/**
 * The HTTP server of a serving process. A request too malformed for Node's HTTP parser to hand to
 * the app still gets the API's JSON error shape (and nosniff), not Node's bare-text 400.
 */
export function createHttpServer(handler: RequestListener): Server {
  const server = createServer(handler);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request header fields too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'Request timeout: the request was not received in time']
          : [400, 'Bad Request', 'Malformed HTTP request'];
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
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
