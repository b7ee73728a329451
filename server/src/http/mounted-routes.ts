import type Router from '@koa/router';
import type Koa from 'koa';
import type { AppState } from './context.js';

/** One route the application answers: a method and a path pattern as its router holds it (`/b/:slug/items/:id`). */
export interface MountedRoute {
  method: string;
  path: string;
}

/** Where an area's middleware keeps its router's routes (withRoutes). */
const AREA_ROUTES = Symbol('area routes');

type WithAreaRoutes = { [AREA_ROUTES]?: () => MountedRoute[] };

/** The routes of one router, HEAD aside (it answers as GET does). */
function routesOf(router: Router<AppState>): MountedRoute[] {
  return router.stack.flatMap((layer) => layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, path: String(layer.path) })));
}

/**
 * Marks an area's middleware (the board's, the team's, the widget's: each runs a router of its own
 * behind one wildcard route) with its router's routes, and those it answers before its router
 * (`answeredBefore`: the board's logos), so that `mountedRoutes` lists them too.
 */
export function withRoutes<M extends object>(middleware: M, router: Router<AppState>, answeredBefore: readonly MountedRoute[] = []): M {
  return Object.assign(middleware, { [AREA_ROUTES]: () => [...answeredBefore, ...routesOf(router)] });
}

/**
 * Every route an application answers: its routers' routes, and those of the areas mounted on
 * them (withRoutes), without repeats. For the tests that walk every route (a NUL in each path).
 */
export function mountedRoutes(app: Koa<AppState>): MountedRoute[] {
  const routes = new Map<string, MountedRoute>();
  const add = (route: MountedRoute) => routes.set(`${route.method} ${route.path}`, route);
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: Router<AppState> }).router;
    if (!router) continue;
    routesOf(router).forEach(add);
    for (const layer of router.stack) {
      for (const inner of layer.stack) (inner as WithAreaRoutes)[AREA_ROUTES]?.().forEach(add);
    }
  }
  return [...routes.values()];
}
