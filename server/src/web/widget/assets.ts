import { serveAsset, staticAsset, staticFolder, type StaticAsset } from '../kit/assets.js';
import type { AppContext } from '../../http/context.js';
import { WIDGET_LOADER_PATH } from '../../domain/projects/widget-settings.service.js';

/** The widget's files: loader.js (the host page's one script), panel.css and panel.js (the panel's). */
const STATIC = staticFolder(import.meta.url);

/** Where the panel's hashed assets are served (a year of cache each). */
export const WIDGET_ASSETS_PREFIX = '/w/assets/';

/** The loader's address (domain/projects/widget-settings.service.ts): fixed, as the host pages' script tags name it, so it is kept for minutes, not a year. */
const LOADER_PATH = WIDGET_LOADER_PATH;

/** How long a browser keeps the loader before asking again: a new release reaches host pages within this. */
const LOADER_CACHE = 'public, max-age=300';

export interface WidgetAssets {
  paths: { css: string; js: string };
  loader: StaticAsset;
  /** Answers a GET or HEAD of the loader or a panel asset; false when the path names none. */
  serve(ctx: AppContext): boolean;
}

/** Read, hashed and compressed once, when the app is made (kit/assets.ts). */
export function widgetAssets(): WidgetAssets {
  const css = staticAsset(STATIC, 'panel', 'css', WIDGET_ASSETS_PREFIX);
  const js = staticAsset(STATIC, 'panel', 'js', WIDGET_ASSETS_PREFIX);
  const loader = staticAsset(STATIC, 'loader', 'js', WIDGET_ASSETS_PREFIX);
  const byPath = new Map([css, js].map((asset) => [asset.path, asset]));
  return {
    paths: { css: css.path, js: js.path },
    loader,
    serve(ctx) {
      if (ctx.path === LOADER_PATH) {
        serveAsset(ctx, loader);
        ctx.set('Cache-Control', LOADER_CACHE);
        // The host page loads it from another site: a resource policy of same-site would block it.
        ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
        return true;
      }
      const asset = byPath.get(ctx.path);
      if (!asset) return false;
      serveAsset(ctx, asset);
      return true;
    },
  };
}
