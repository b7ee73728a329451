import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { DEFAULT_CONNECTION_LIMITS } from './serve-defaults.js';

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

/** The defaults, and why they are what they are, are in serve-defaults.ts. */
export { DEFAULT_CONNECTION_LIMITS };

/** The defaults with what the operator set; the headers' time never exceeds the request's (Node refuses that). */
export function connectionLimits(given: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...withoutUndefined(given) };
  return { ...limits, headersTimeoutMs: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) };
}

/**
 * Node checks the timeouts on an interval (30 s by default), so a request can outlive its time by up
 * to that much. Checked every second, or a tenth of the shorter time when that is under 10 s, a
 * request is cut within its time plus at most a second.
 */
export function timeoutCheckIntervalMs(limits: ConnectionLimits): number {
  return Math.max(20, Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 10)));
}

/** A complete JSON error response for writing straight to a socket, outside any request. */
export function rawJsonResponse(status: number, reason: string, message: string, headers: Record<string, string> = {}): string {
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
export function answerAndClose(socket: Socket, response: string): void {
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
export function answerAndLinger(socket: Socket, response: string): void {
  socket.end(response);
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}

/**
 * Caps the open connections of each remote address. A connection over the cap is answered at once
 * with a JSON 503 and Retry-After (the client may come back when one of its connections closes);
 * the function returned tells the request handler to drop whatever request arrives on it, so that
 * nothing sent there is ever handled while it lingers.
 */
export function capConnectionsPerAddress(server: Server, max: number): (socket: Socket) => boolean {
  const refused = new WeakSet<Socket>();
  if (max <= 0) return () => false;
  const open = new Map<string, number>();
  const refusal = rawJsonResponse(503, 'Service Unavailable', `Too many open connections from this address (at most ${max})`, { 'Retry-After': '1' });
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
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
  });
  return (socket) => refused.has(socket);
}

function withoutUndefined<T extends object>(value: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
