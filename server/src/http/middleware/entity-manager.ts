import type { Middleware } from 'koa';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppState } from '../context.js';

/** A fresh EntityManager fork per request: no identity map or unit of work is ever shared. */
export function entityManager(orm: MikroORM): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.em = orm.em.fork();
    await next();
  };
}
