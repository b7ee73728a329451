import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { retryingLostRaces } from './conflicts.js';
import type { SqlPool } from './pool.js';

/**
 * One request's transaction, seen from both sides of data access: `sql` runs the hot side's
 * statements (*.sql.ts) and `em` the operator side's services, on the same connection, so a
 * change and what is written beside it (an idempotency record) commit together or not at all.
 */
export interface RequestTransaction {
  sql: Pick<SqlPool, 'query'>;
  em: EntityManager;
}

/** Runs `work` in a request transaction. */
export type RunTransaction = <T>(work: (tx: RequestTransaction) => Promise<T>) => Promise<T>;

/**
 * Request transactions on the ORM's connections, retried whole on a deadlock or serialization
 * failure (db/conflicts.ts): `work` may run more than once, and must start from nothing each time.
 */
export function requestTransactions(orm: () => Promise<MikroORM>): RunTransaction {
  return async (work) => {
    const opened = await orm();
    return retryingLostRaces(() =>
      opened.em.fork().transactional(async (em) => {
        const client = await connectionOf(em);
        // Unnamed statements: on the embedded database every connection shares one session.
        const sql: RequestTransaction['sql'] = {
          query: async <Row extends Record<string, unknown>>(_name: string, text: string, values: readonly unknown[]) =>
            (await client.query<Row>({ text, values: [...values] })).rows,
        };
        return work({ sql, em });
      }),
    );
  };
}

/**
 * The node-postgres connection under the ORM's transaction `em`. MikroORM 6 runs on knex, whose
 * transaction client hands out the one connection the transaction holds.
 */
async function connectionOf(em: EntityManager): Promise<pg.ClientBase> {
  const trx = em.getTransactionContext<{ client: { acquireConnection(): Promise<pg.ClientBase> } }>();
  if (!trx) throw new Error('connectionOf: no transaction is open on this EntityManager');
  return trx.client.acquireConnection();
}
