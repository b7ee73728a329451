import { availableParallelism } from 'node:os';

/**
 * How many processes `feedback serve` starts when `--workers` is not given:
 * - the embedded database: 1 (PGlite runs one query at a time);
 * - PostgreSQL on another machine: one per core;
 * - PostgreSQL on this machine (localhost, a loopback address or a Unix socket): half the cores,
 *   at least 1. Each request costs PostgreSQL about as much CPU as it costs the server (measured:
 *   the server took 40 to 45 % of the machine in every point scenario of the side-by-side
 *   benchmark), so the two share the cores; a worker per core only makes the processes take the
 *   cores from each other. On 2 cores one worker served 5 to 18 % more requests per second than
 *   two in every scenario (docs/operations.md, "Workers").
 */
export function defaultWorkers(databaseUrl: string | undefined, cores: number = availableParallelism()): number {
  if (!databaseUrl) return 1;
  return databaseOnThisMachine(databaseUrl) ? Math.max(1, Math.floor(cores / 2)) : Math.max(1, cores);
}

/** Whether a PostgreSQL URL names this machine: no host (libpq's default socket), a socket path, localhost or loopback. */
export function databaseOnThisMachine(databaseUrl: string): boolean {
  // libpq's form: a `host` parameter (a socket directory) overrides the authority, which may be empty
  // (`postgres://user@/db?host=/run/postgresql`, which WHATWG's URL refuses).
  const socketHost = /[?&]host=([^&]*)/.exec(databaseUrl)?.[1];
  if (socketHost !== undefined) {
    const host = decodeURIComponent(socketHost);
    return host.startsWith('/') || isLoopback(host);
  }
  const authority = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?]*@)?([^/?]*)/i.exec(databaseUrl);
  // Not a URL (a key=value connection string): assume another machine, the larger default.
  if (!authority) return false;
  const host = authority[1]!.replace(/:\d*$/, '');
  return host === '' || isLoopback(host);
}

function isLoopback(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}
