import type { AppContext } from '../../http/context.js';
import { serveAsset, staticAsset, staticFolder } from '../kit/assets.js';

/**
 * The team pages' script (team/static/team.js: keyboard shortcuts), served by the team's middleware
 * under /team/assets/ with a hash of its content in its name, so it is cached for a year like the
 * board's assets (web/kit/assets.ts reads, names and serves both), which the team pages use for
 * their stylesheet. Only team pages load it, so the board's visitors never download it.
 */
export interface TeamScript {
  /** Where the pages' <script> points. */
  path: string;
  /** Answers a GET or HEAD of the script; false when the path is not it. */
  serve(ctx: AppContext): boolean;
}

export function teamScript(): TeamScript {
  const script = staticAsset(staticFolder(import.meta.url), 'team', 'js', '/team/assets/');
  return {
    path: script.path,
    serve(ctx) {
      if (ctx.path !== script.path || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
      serveAsset(ctx, script);
      return true;
    },
  };
}
