import { serveAsset, staticAsset, staticFolder, type BoardAssets } from '../kit/assets.js';

/** The board's files: board.css (the stylesheet of the board's and the team's pages) and board.js. */
const STATIC = staticFolder(import.meta.url);

/**
 * The board's stylesheet and script, served under /assets/ (the board's middleware answers that
 * prefix); app.ts makes them once and gives them to the board and to the team's pages.
 */
export function boardAssets(): BoardAssets {
  const css = staticAsset(STATIC, 'board', 'css');
  const js = staticAsset(STATIC, 'board', 'js');
  const byPath = new Map([css, js].map((asset) => [asset.path, asset]));
  return {
    paths: { css: css.path, js: js.path },
    serve(ctx) {
      const asset = byPath.get(ctx.path);
      if (!asset) return false;
      serveAsset(ctx, asset);
      return true;
    },
  };
}
