import type { Middleware } from 'koa';
import { ERROR_MESSAGES } from '@feedback/sdk/contract';
import { findActiveKey } from '../../modules/keys/keys.service.js';
import type { AppState } from '../context.js';
import { AppError } from '../errors.js';

/** Spec part 5: every request carries `x-api-key`; a missing, unknown or revoked key is a 401. */
export function auth(): Middleware<AppState> {
  return async (ctx, next) => {
    const key = ctx.get('x-api-key').trim();
    if (key === '') throw new AppError(401, ERROR_MESSAGES.missingApiKey);
    const active = await findActiveKey(ctx.state.em, key);
    if (!active) throw new AppError(401, ERROR_MESSAGES.invalidApiKey);
    ctx.state.apiKeyId = active.keyId;
    ctx.state.projectId = active.projectId;
    await next();
  };
}
