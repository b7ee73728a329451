import { UUID } from '../../db/uuid.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';

/*
 * An item named by a page's path (/b/:slug/items/:id, /team/items/:id), the same on the board and
 * on the team's pages, with the same refusal when it names none.
 */

/** The item id of the path, checked as the API checks it (mount.ts): a malformed one names nothing. */
export function itemId(ctx: AppContext): string {
  const id = ctx.params.id ?? '';
  if (!UUID.test(id)) throw itemNotFound();
  return id.toLowerCase();
}

export function itemNotFound(): AppError {
  return new AppError(404, 'There is no such item on this board. It may have been merged into another or deleted.');
}
