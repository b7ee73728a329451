import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';

/**
 * One connection of the ORM's own pool, for the operator work that streams raw SQL past the ORM
 * (export, import, seed). Taken from that pool, not a new one, so that the pool's bound holds:
 * the embedded database serves one connection per operator command. Give it back with `release()`.
 *
 * The pool is MikroORM's: it reads date and timestamp columns as their text, not as `Date`.
 */
export async function ormConnection(orm: MikroORM): Promise<pg.PoolClient> {
  const pool = await orm.em.getConnection().getNativeClient();
  return pool.connect();
}
