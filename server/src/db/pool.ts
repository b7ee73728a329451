import pg from 'pg';
import type { Database } from './database.js';

/**
 * The hot side's handle on the database: parameterised SQL on a node-postgres pool, no ORM.
 * Every statement of the six spec endpoints, auth and idempotency goes through `query`.
 */
export interface SqlPool {
  /**
   * Runs one statement. `name` makes it a prepared statement on a real PostgreSQL (parsed and
   * planned once per connection); on the embedded database every statement is unnamed, because
   * all its connections share one session, where a second Parse of one name fails (42P05).
   */
  query<Row extends Record<string, unknown>>(name: string, text: string, values: readonly unknown[]): Promise<Row[]>;
  /** Answers within `timeoutMs` whether the database runs a trivial query. */
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Session settings of every hot connection (real PostgreSQL):
 * - UTC, so timestamps print alike whatever the server's zone;
 * - force_generic_plan: every hot statement was checked to have a good generic plan (see
 *   docs/architecture.md); in auto mode PostgreSQL re-plans the list statements on each call;
 * - no parallel workers or JIT: under a saturating load of short statements they cost more than
 *   they save.
 */
const SESSION_OPTIONS = '-c TimeZone=UTC -c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0 -c jit=off';

/** How long a request waits for a connection before it is answered 503. */
export const CONNECT_TIMEOUT_MS = 1_500;

export function openSqlPool(database: Pick<Database, 'kind' | 'connection'>, max: number): SqlPool {
  const embedded = database.kind === 'embedded';
  const connection = 'clientUrl' in database.connection
    ? { connectionString: database.connection.clientUrl }
    : { host: database.connection.host, port: database.connection.port, user: database.connection.user, database: database.connection.dbName };
  const pool = new pg.Pool({
    ...connection,
    max,
    idleTimeoutMillis: 30_000,
    // A pool that cannot connect must fail the request (503) within 2 s, not queue it: this bounds
    // both a connect that hangs and a wait for a free connection under overload.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // The embedded database's one session is shared; its settings are left as they are.
    ...(embedded ? {} : { options: SESSION_OPTIONS }),
  });
  // An idle client losing its connection (a restarted database) must not crash the process.
  pool.on('error', () => {});
  let closing: Promise<void> | undefined;
  return {
    async query<Row extends Record<string, unknown>>(name: string, text: string, values: readonly unknown[]): Promise<Row[]> {
      const config: pg.QueryConfig = embedded ? { text, values: [...values] } : { name, text, values: [...values] };
      const result = await pool.query<Row>(config);
      return result.rows;
    },
    async ping(timeoutMs: number): Promise<boolean> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const answered = pool.query('select 1').then(
        () => true,
        () => false,
      );
      const ok = await Promise.race([answered, timeout]);
      clearTimeout(timer);
      return ok;
    },
    close: () => {
      closing ??= pool.end();
      return closing;
    },
  };
}
