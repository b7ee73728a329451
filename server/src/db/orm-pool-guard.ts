import type pg from 'pg';

/**
 * Gives back to the ORM's pool every connection that dies while it is checked out.
 *
 * MikroORM 7 runs transactions through kysely's controlled transactions, which release their
 * connection only after a COMMIT or ROLLBACK that succeeded. When the database goes away inside a
 * transaction (a crash, a restart, a dropped network), both fail on the dead connection and it is
 * never released: each such transaction costs the pool one of its slots for good, until keyed
 * writes and operator commands wait for a connection that never comes (seen as 7 of 10 lost after
 * one PostgreSQL crash under load, test/server/in-doubt-commits.test.ts).
 *
 * So every checked-out client is watched for its `end`: a connection that ends before it was
 * released is released with an error, which makes the pool discard it and open a new one when
 * needed. Its release becomes idempotent, because a holder that does call it later (a plain query,
 * released in a `finally`) must not meet pg-pool's double-release error.
 */
export function releaseDeadConnections(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const guarded = async (): Promise<pg.PoolClient> => {
    const client = await connect();
    const release = client.release;
    let released = false;
    const onEnd = () => {
      if (released) return;
      released = true;
      release(new Error('the connection ended while it was checked out'));
    };
    client.once('end', onEnd);
    client.release = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      client.off('end', onEnd);
      release(error);
    };
    return client;
  };
  // Kysely and ormConnection() both check out with the promise form, the only one replaced here.
  pool.connect = guarded as typeof pool.connect;
}
