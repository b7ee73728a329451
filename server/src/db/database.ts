import { resolve } from 'node:path';
import { openEmbeddedPostgres } from './embedded/embedded-postgres.js';

/** Where the data lives: a PostgreSQL URL, or else the embedded database in a data directory. */
export interface DatabaseLocation {
  databaseUrl?: string | undefined;
  dataDir: string;
}

/** How node-postgres reaches the database, in MikroORM's connection options. */
export type ConnectionOptions = { clientUrl: string } | { host: string; port: number; user: string; dbName: string };

/** An open database: how to connect, how many connections to pool, and how to let go of it. */
export interface Database {
  kind: 'postgres' | 'embedded';
  /** A human description for logs, never containing a password. */
  description: string;
  connection: ConnectionOptions;
  poolMax: number;
  close(): Promise<void>;
}

/**
 * `server` is `feedback serve`: it must own an embedded data directory. `operator` is a one-shot
 * command (migrate, keys): it owns the directory when nobody does, and otherwise connects to the
 * server that owns it, so it works while the server runs.
 */
export type DatabaseRole = 'server' | 'operator';

/**
 * Opens the database of `location`. With `mustExist`, an embedded data directory that holds no
 * database is a DatabaseMissingError instead of a new database (see openEmbeddedPostgres); a URL
 * never creates anything, since PostgreSQL itself refuses a database that does not exist.
 */
export async function openDatabase(location: DatabaseLocation, role: DatabaseRole, options: { mustExist?: boolean } = {}): Promise<Database> {
  if (location.databaseUrl) {
    return {
      kind: 'postgres',
      description: `PostgreSQL ${redactUrl(location.databaseUrl)}`,
      connection: { clientUrl: location.databaseUrl },
      poolMax: role === 'server' ? 10 : 2,
      close: async () => {},
    };
  }
  const embedded = await openEmbeddedPostgres(location.dataDir, { allowGuest: role === 'operator', mustExist: options.mustExist ?? false });
  const socket = embedded.socket;
  const where = 'path' in socket ? socket.path : `${socket.host}:${socket.port}`;
  return {
    kind: 'embedded',
    description:
      embedded.role === 'owner'
        ? `embedded PostgreSQL in ${resolve(location.dataDir)}`
        : `embedded PostgreSQL in ${resolve(location.dataDir)}, through the server (pid ${embedded.ownerPid}) that owns it`,
    // node-postgres reads a host starting with "/" as the directory of a unix socket named .s.PGSQL.<port>.
    connection:
      'path' in socket
        ? { host: socket.path.replace(/\/\.s\.PGSQL\.\d+$/, ''), port: Number(/\d+$/.exec(socket.path)?.[0]), user: 'postgres', dbName: 'postgres' }
        : { host: socket.host, port: socket.port, user: 'postgres', dbName: 'postgres' },
    // PGlite runs one statement at a time whatever the pool size; a few connections let requests
    // queue at the database instead of at the pool, and leave room for operator commands.
    poolMax: role === 'server' ? 4 : 1,
    close: embedded.close,
  };
}

/** The URL with its password replaced, for logs and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}
