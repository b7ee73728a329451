import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DataDirLock, readLock, type SocketAddress } from './lock-file.js';
import { EmbeddedSocketServer } from './socket-server.js';

/** Connections the socket server accepts: the server's pool plus room for operator commands. */
const MAX_SOCKET_CONNECTIONS = 16;
/** Longest unix socket path the kernel accepts is 107 bytes; past that we serve on loopback TCP. */
const MAX_UNIX_SOCKET_PATH = 100;
/**
 * PGlite's buffer pool. PGlite starts with PostgreSQL's default of 128 MB, which it allocates and
 * touches at start, inside its WebAssembly memory, so a server held it resident before its first
 * request: 130 MB of a 470 MB `feedback serve` at 100,000 items (docs/operations.md, "Memory").
 * PGlite reads its files through Node's file system calls, so a page it no longer holds is read
 * again from the operating system's page cache, not from disk; the hot set of the list, detail
 * and vote statements at 100,000 items fits in 32 MB.
 */
const SHARED_BUFFERS = '32MB';
/** How long an operator command waits for a starting owner to publish its socket. */
const OWNER_START_TIMEOUT_MS = 15_000;

/** An embedded database ready for node-postgres: where to connect, and how to let go of it. */
export interface EmbeddedDatabase {
  /** `owner` opened the files itself; `guest` connects to the process that owns them. */
  role: 'owner' | 'guest';
  socket: SocketAddress;
  ownerPid: number;
  close(): Promise<void>;
}

/** The data directory is owned by another live process and the caller needs to own it. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(`the data directory ${dataDir} is in use by process ${pid} (is \`feedback serve\` already running on it?)`);
    this.name = 'DataDirInUseError';
  }
}

/** Whether `dataDir` holds an embedded database already (a first start creates one, which takes a while). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(join(resolve(dataDir), 'pgdata', 'PG_VERSION'));
}

/**
 * There is no database where a command that must not create one looked (`feedback keys` in the
 * wrong directory, say): nothing was created, and the message says what to run.
 */
export class DatabaseMissingError extends Error {
  constructor(readonly where: string) {
    super(`no feedback database in ${where}`);
    this.name = 'DatabaseMissingError';
  }
}

/**
 * Opens the embedded PostgreSQL (PGlite) kept in `dataDir`.
 *
 * The owner loads PGlite (with pg_trgm) and serves it on a socket; every connection, including
 * the owner's own pool, goes through that socket, so direct queries never mix with socket traffic.
 * When another live process owns the directory: with `allowGuest` we connect to its socket (how
 * `feedback keys` works while `feedback serve` runs); otherwise it is an error. With `mustExist`, a
 * directory holding no database is a DatabaseMissingError and is left exactly as it was found.
 */
export async function openEmbeddedPostgres(dataDirInput: string, options: { allowGuest: boolean; mustExist?: boolean }): Promise<EmbeddedDatabase> {
  const dataDir = resolve(dataDirInput);
  const pgdata = join(dataDir, 'pgdata');
  if (options.mustExist && !existsSync(dataDir)) throw new DatabaseMissingError(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = DataDirLock.acquire(dataDir);
  // A live owner may still be creating the files (its first start): going through it is safe.
  if (options.mustExist && lock instanceof DataDirLock && !embeddedDatabaseExists(dataDir)) {
    lock.release();
    throw new DatabaseMissingError(dataDir);
  }
  if (!(lock instanceof DataDirLock)) {
    if (!options.allowGuest) throw new DataDirInUseError(dataDir, lock.pid);
    const socket = lock.socket ?? (await waitForOwnerSocket(dataDir, lock.pid));
    return { role: 'guest', socket, ownerPid: lock.pid, close: async () => {} };
  }

  let db: PGlite | undefined;
  let server: EmbeddedSocketServer | undefined;
  try {
    db = await PGlite.create({ dataDir: pgdata, extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] });
    server = new EmbeddedSocketServer(db, MAX_SOCKET_CONNECTIONS);
    const unixPath = join(dataDir, '.s.PGSQL.5432');
    const socket = await server.listen(unixPath.length <= MAX_UNIX_SOCKET_PATH ? { path: unixPath } : { host: '127.0.0.1', port: 0 });
    lock.publish(socket);
    const opened = { db, server };
    return {
      role: 'owner',
      socket,
      ownerPid: process.pid,
      close: async () => {
        await opened.server.close();
        await opened.db.close();
        lock.release();
      },
    };
  } catch (error) {
    await server?.close().catch(() => {});
    await db?.close().catch(() => {});
    lock.release();
    throw error;
  }
}

async function waitForOwnerSocket(dataDir: string, pid: number): Promise<SocketAddress> {
  const deadline = Date.now() + OWNER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await sleep(100);
    const socket = readLock(dataDir)?.socket;
    if (socket) return socket;
  }
  throw new Error(`process ${pid} holds ${dataDir} but has not opened its database after ${OWNER_START_TIMEOUT_MS / 1000} s`);
}
