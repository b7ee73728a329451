import pg from 'pg';
import type { Database } from './database.js';
import { openPipelines } from './pipelined-pool.js';

/**
 * The hot side's handle on the database: parameterised SQL on node-postgres connections, no ORM.
 * Every statement of the six spec endpoints, auth and idempotency goes through `query`.
 */
/** A hot statement: its prepared-statement name and its text (the *.sql.ts files hold them). */
export interface Statement {
  name: string;
  text: string;
}

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
 * Where a feature runs its statements: the pool, or the transaction of a write sent with an
 * Idempotency-Key (http/mount.ts hands the handler whichever applies), which only needs `query`.
 */
export type Statements = Pick<SqlPool, 'query'>;

/** What the metrics read of the hot pool at a scrape: connections open, its size, statements not answered yet. */
export interface PoolFigures {
  open: number;
  size: number;
  queries: number;
}

/** The pool `openSqlPool` makes: a SqlPool whose figures can be read. */
export type HotPool = SqlPool & { figures(): PoolFigures };

/**
 * Session settings of every hot connection (real PostgreSQL):
 * - UTC, so timestamps print alike whatever the server's zone;
 * - force_generic_plan: every hot statement was checked to have a good generic plan (see
 *   docs/architecture.md); in auto mode PostgreSQL re-plans the list statements on each call;
 * - no parallel workers or JIT: under a saturating load of short statements they cost more than
 *   they save.
 */
const SESSION_OPTIONS = '-c TimeZone=UTC -c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0 -c jit=off';

/** How long a request waits for a connection to open before it is answered 503. */
export const CONNECT_TIMEOUT_MS = 1_500;

/**
 * How long a request waits for its turn on the embedded database before it is answered 503. The
 * embedded database runs one statement at a time, so a burst of requests queues for a connection.
 * It used to be CONNECT_TIMEOUT_MS: on a busy machine (20 runnable processes on 2 cores) a burst of
 * 30 writes then waited past 1.5 s and was refused, though each would have been served within a
 * few seconds, and an import's transaction turned every request beside it into a 503. Ten seconds
 * still bounds the wait, so no request hangs; a connect to the embedded server, in this machine's
 * own process, does not stall on a network as a PostgreSQL connect can.
 */
export const EMBEDDED_WAIT_MS = 10_000;

/**
 * The hot side's connections, `connections` of them: on PostgreSQL, pipelined lanes
 * (pipelined-pool.ts); on the embedded database, a small pool of ordinary connections, since all
 * its connections share its one session and it runs one statement at a time anyway. With
 * `genericPlans: false` (the machine's jobs) each statement is planned for the data as it is:
 * the outbox grows from nothing to a backlog of thousands within seconds, and a generic plan made
 * while it was empty kept scanning all of it (a seq scan of 30 million rows in one benchmark run).
 */
export function openSqlPool(database: Pick<Database, 'kind' | 'connection'>, connections: number, options: { genericPlans?: boolean } = {}): HotPool {
  const connection = clientConfig(database);
  if (database.kind === 'embedded') return embeddedPool(connection, connections);
  const sessionOptions = options.genericPlans === false ? SESSION_OPTIONS.replace('force_generic_plan', 'auto') : SESSION_OPTIONS;
  const lanes = openPipelines({ connection: { ...connection, options: sessionOptions }, lanes: connections, connectTimeoutMs: CONNECT_TIMEOUT_MS });
  let closing: Promise<void> | undefined;
  return {
    // The lanes' own method, not a wrapper: a request's statement runs no code of this file.
    query: lanes.query,
    ping: (timeoutMs) => answersWithin(lanes.query('', 'select 1', []), timeoutMs),
    figures: () => lanes.figures(),
    close: () => (closing ??= lanes.close()),
  };
}

/** How node-postgres connects to `database`. */
export function clientConfig(database: Pick<Database, 'connection'>): pg.ClientConfig {
  return 'clientUrl' in database.connection
    ? { connectionString: database.connection.clientUrl }
    : { host: database.connection.host, port: database.connection.port, user: database.connection.user, database: database.connection.dbName };
}

function embeddedPool(connection: pg.ClientConfig, max: number): HotPool {
  const pool = new pg.Pool({
    ...connection,
    max,
    idleTimeoutMillis: 30_000,
    // Bounds both a connect that hangs and a wait for a free connection under a burst (a 503 then).
    connectionTimeoutMillis: EMBEDDED_WAIT_MS,
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  let closing: Promise<void> | undefined;
  return {
    async query<Row extends Record<string, unknown>>(_name: string, text: string, values: readonly unknown[]): Promise<Row[]> {
      // Unnamed: the one session is shared, where a second Parse of one name fails (42P05).
      const result = await pool.query<Row>({ text, values: [...values] });
      return result.rows;
    },
    ping: (timeoutMs) => answersWithin(pool.query('select 1'), timeoutMs),
    figures: () => ({ open: pool.totalCount, size: max, queries: pool.totalCount - pool.idleCount + pool.waitingCount }),
    close: () => (closing ??= pool.end()),
  };
}

/** Whether `query` succeeds within `timeoutMs`. */
async function answersWithin(query: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = query.then(
    () => true,
    () => false,
  );
  const ok = await Promise.race([answered, timeout]);
  clearTimeout(timer);
  return ok;
}
