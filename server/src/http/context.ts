import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParameterizedContext } from 'koa';

/** What the middleware chain puts on `ctx.state` for the handlers after it. */
export interface AppState {
  requestId: string;
  /** A fork of the ORM's EntityManager made for this request alone. */
  em: EntityManager;
  /** The project of the caller's API key; set by the auth middleware. */
  projectId: string;
}

export type AppContext = ParameterizedContext<AppState>;
