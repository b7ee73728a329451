import type { AppContext } from '../../http/context.js';
import { serveAsset, staticAsset, staticFolder, type AssetPaths } from '../kit/assets.js';

/**
 * The team pages' own files: the script (team/static/team.js: keyboard shortcuts, select-all,
 * the banner) and the stylesheet (team/static/team.css: the inbox's bar, tabs, banner and the
 * shortcuts overlay, on top of the board's stylesheet, which the team pages use too). Served by
 * the team's middleware under /team/assets/ with a hash of their content in their names, so they
 * are cached for a year like the board's assets (web/kit/assets.ts reads, names and serves them
 * all). Only team pages load them, so the board's visitors never download them.
 */
export interface TeamAssets {
  /** Where the pages' <script> points. */
  script: string;
  /** Where the pages' second stylesheet <link> points. */
  styles: string;
  /** Answers a GET or HEAD of one of them; false when the path is neither. */
  serve(ctx: AppContext): boolean;
}

/** What a team page links to: the board's stylesheet (`css`), the team's script (`js`) and the team's stylesheet. */
export interface TeamAssetPaths extends AssetPaths {
  teamCss: string;
}

export function teamAssets(): TeamAssets {
  const folder = staticFolder(import.meta.url);
  const files = [staticAsset(folder, 'team', 'js', '/team/assets/'), staticAsset(folder, 'team', 'css', '/team/assets/')] as const;
  return {
    script: files[0].path,
    styles: files[1].path,
    serve(ctx) {
      const file = files.find((asset) => asset.path === ctx.path);
      if (!file || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
      serveAsset(ctx, file);
      return true;
    },
  };
}
