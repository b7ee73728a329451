import type { Middleware } from 'koa';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

/** Where the API's OpenAPI document is served. */
export const OPENAPI_PATH = '/api/v1/openapi.json';

/**
 * GET /api/v1/openapi.json, before authentication and the rate limit: the description of the API
 * is public, like the spec it follows. The document (JSON text) is built once, when the app is.
 */
export function openApi(document: string): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== OPENAPI_PATH) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new AppError(405, 'Method Not Allowed', undefined, { Allow: 'GET, HEAD' });
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = document;
  };
}
