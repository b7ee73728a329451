import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { AppContext } from './context.js';

/** The operator side's ORM as the routes ask for it; a cluster worker opens it on the first operator request. */
export type OperatorOrm = () => Promise<MikroORM>;

/**
 * The entity manager an operator's change runs in: the transaction of a write sent with an
 * Idempotency-Key (idempotent-writes.ts), so the change commits with the key's record, or else a
 * fork of its own.
 */
export function requestEm(orm: OperatorOrm): (ctx: AppContext) => Promise<EntityManager> {
  return async (ctx) => ctx.state.tx?.em ?? (await orm()).em.fork();
}
