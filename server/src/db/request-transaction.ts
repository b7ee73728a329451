import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { CompiledQuery, type ControlledTransaction } from 'kysely';
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
      opened.em.fork().transactional(async (em) => work({ sql: transactionSql(em), em })),
    );
  };
}

/**
 * Runs the hot side's statements (text with `$1` placeholders, as *.sql.ts write them) in the
 * ORM's open transaction `em`, on its connection: for `sql` of a request transaction, and for an
 * operator service that shares a statement with the hot side (domain/comments/comments.service.ts).
 */
export function transactionSql(em: EntityManager): RequestTransaction['sql'] {
  const trx = transactionOf(em);
  // Unnamed statements: on the embedded database every connection shares one session.
  return {
    query: async <Row extends Record<string, unknown>>(_name: string, text: string, values: readonly unknown[]) =>
      (await trx.executeQuery<Row>(CompiledQuery.raw(text, [...values]))).rows,
  };
}

/**
 * The transaction under the ORM's transaction `em`. MikroORM 7 runs on kysely: its transaction
 * runs a raw statement on the one connection the transaction holds, and hands the text and values
 * to node-postgres as they are (its `$1` placeholders included).
 */
function transactionOf(em: EntityManager): ControlledTransaction<unknown> {
  const trx = em.getTransactionContext<ControlledTransaction<unknown>>();
  if (!trx) throw new Error('transactionOf: no transaction is open on this EntityManager');
  return trx;
}
