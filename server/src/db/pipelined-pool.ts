import { Socket } from 'node:net';
import pg from 'pg';
import { isLostRace, retryingLostRaces } from './conflicts.js';

/**
 * The hot side's connections to a real PostgreSQL: a few long-lived connections in pipeline mode
 * ("lanes"), each query sent at once on its turn's lane (below) or the one with the fewest in flight.
 *
 * Why not a pool of connections that each wait for their answer: with one statement per request,
 * a request costs a write to PostgreSQL, a backend waking up, and a read back. Measured on 2 cores
 * with the side-by-side benchmark, those wake-ups and one write per query left a third of the
 * machine idle while both the server and PostgreSQL waited on each other. On a lane, a backend
 * finds the next query already in its socket when it finishes one, the answers of several queries
 * come back in one read, and the queries of one turn of the event loop leave in one write (the
 * socket is corked until `setImmediate`).
 *
 * The queries of one turn go on one lane, the least busy one when the turn's first query was
 * sent, while it has at most TURN_LANE_SLACK more queries in flight than the least busy lane: each
 * lane a turn writes to is a write system call and a backend woken. Spread over the four lanes,
 * the writes were a sixth of the serving process's CPU under the detail view's load (writev, in a
 * CPU profile); kept on one lane, the process spent about 9 % less CPU per detail request.
 *
 * Each query is still its own implicit transaction: node-postgres ends every pipelined query with
 * its own Sync, so a failed statement fails alone and the ones behind it run. The cost is head-of-
 * line waiting: a query queued behind a slow one on its lane waits for it; each turn starts on the
 * lane with the fewest queries in flight, which steers new queries away from a lane that is stuck,
 * and within a turn at most TURN_LANE_SLACK more queries join a lane that is busier than another.
 */
export interface Pipelines {
  /**
   * Runs one statement as a prepared statement of that name (SqlPool's query, db/pool.ts). Each is
   * its own transaction: one that lost a race for locks runs again (db/conflicts.ts).
   */
  query<Row extends Record<string, unknown>>(name: string, text: string, values: readonly unknown[]): Promise<Row[]>;
  /** Lanes connected now, lanes in all, and queries not answered yet (for the metrics). */
  figures(): { open: number; size: number; queries: number };
  close(): Promise<void>;
}

export interface PipelineOptions {
  /** Where and how to connect (host, port, user, database or a connection string, session options). */
  connection: pg.ClientConfig;
  lanes: number;
  /** A connect that has not finished by then fails (and the request with it, as a 503). */
  connectTimeoutMs: number;
}

interface Lane {
  client: pg.Client | undefined;
  /** The socket under `client`, kept to batch the writes of one event-loop turn. */
  socket: Socket | undefined;
  connecting: Promise<pg.Client> | undefined;
  /** Queries sent or waiting on this lane and not answered yet. */
  pending: number;
}

/** How many more queries in flight than the least busy lane the turn's lane may have and still take the turn's next query. */
const TURN_LANE_SLACK = 4;

export function openPipelines(options: PipelineOptions): Pipelines {
  const lanes: Lane[] = Array.from({ length: Math.max(1, options.lanes) }, () => ({ client: undefined, socket: undefined, connecting: undefined, pending: 0 }));
  let closed = false;
  /** The lane this turn of the event loop writes to, until its writes leave. */
  let turnLane: Lane | undefined;

  /** Connects a lane that has no live connection: at first use, and again after its connection was lost. */
  function connect(lane: Lane): Promise<pg.Client> {
    lane.connecting ??= (async () => {
      const socket = new Socket();
      const client = new pg.Client({ ...options.connection, pipeline: true, connectionTimeoutMillis: options.connectTimeoutMs, stream: () => socket });
      const forget = () => retire(lane, client);
      // A lost connection (a restarted database) fails the queries on it; the next query reconnects.
      client.on('error', forget);
      client.on('end', forget);
      try {
        await client.connect();
        if (closed) throw new Error('Client was closed and is not queryable');
      } catch (error) {
        client.end().catch(() => {});
        throw error;
      } finally {
        lane.connecting = undefined;
      }
      lane.client = client;
      lane.socket = socket;
      return client;
    })();
    return lane.connecting;
  }

  function retire(lane: Lane, client: pg.Client): void {
    if (lane.client !== client) return;
    lane.client = undefined;
    lane.socket = undefined;
    client.end().catch(() => {});
  }

  function leastBusy(): Lane {
    let best = lanes[0]!;
    for (const lane of lanes) if (lane.pending < best.pending) best = lane;
    return best;
  }

  /** The turn's lane while it is live and not far busier than the least busy one, else the least busy. */
  function laneOfTurn(): Lane {
    const least = leastBusy();
    return turnLane?.client && turnLane.pending <= least.pending + TURN_LANE_SLACK ? turnLane : least;
  }

  /**
   * Holds the lane's writes until this turn of the event loop has run its callbacks, so that the
   * turn's queries on it leave in one write, and makes it the turn's lane meanwhile. node-postgres
   * corks the socket for each query's own messages too; corks nest, and the last uncork sends.
   */
  function holdForTurn(lane: Lane, socket: Socket): void {
    if (socket.writableCorked > 0) return;
    socket.cork();
    turnLane = lane;
    setImmediate(() => {
      socket.uncork();
      if (turnLane === lane) turnLane = undefined;
    });
  }

  /** Sends one statement on the turn's lane (laneOfTurn), connecting it first if it has no live connection. */
  async function send<Row extends Record<string, unknown>>(config: pg.QueryConfig): Promise<Row[]> {
    if (closed) throw new Error('Client was closed and is not queryable');
    const lane = laneOfTurn();
    lane.pending++;
    let client: pg.Client | undefined;
    try {
      client = lane.client ?? (await connect(lane));
      if (lane.socket) holdForTurn(lane, lane.socket);
      const result = await client.query<Row>(config);
      return result.rows;
    } catch (error) {
      // A statement's own error leaves the connection as good as it was; any other (a broken
      // socket, a backend that was terminated) retires it, so the next query connects afresh.
      if (client && !isStatementError(error)) retire(lane, client);
      throw error;
    } finally {
      lane.pending--;
    }
  }

  return {
    query<Row extends Record<string, unknown>>(name: string, text: string, values: readonly unknown[]): Promise<Row[]> {
      const config = { name, text, values: [...values] };
      return send<Row>(config).catch((error: unknown) => (isLostRace(error) ? retryingLostRaces(() => send<Row>(config)) : Promise.reject(error)));
    },
    figures() {
      let open = 0;
      let queries = 0;
      for (const lane of lanes) {
        if (lane.client) open++;
        queries += lane.pending;
      }
      return { open, size: lanes.length, queries };
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all(lanes.map((lane) => lane.client?.end().catch(() => {})));
    },
  };
}

/** An error PostgreSQL answered for one statement, after which its session goes on (not FATAL or PANIC). */
export function isStatementError(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity !== 'FATAL' && error.severity !== 'PANIC';
}

