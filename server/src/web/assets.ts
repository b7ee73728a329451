import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import type { AppContext } from '../http/context.js';

/**
 * The board's stylesheet and script, served by the server itself (no CDN, no external font) from
 * `/assets/` under names that carry a hash of their content: a browser may keep them for a year
 * without asking again, and a new release's files have new names. They are read, hashed and
 * compressed once, when the app is made.
 *
 * They live in src/web/static (plain CSS and JavaScript, which tsc does not copy) and are read
 * from there: the package ships src beside dist (server/package.json, "files").
 */
const STATIC_DIR = new URL('../../src/web/static/', import.meta.url);

/** Where assets are served. */
export const ASSETS_PREFIX = '/assets/';

const TYPES = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' } as const;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A file of static/, read, hashed and compressed once. */
export interface StaticAsset {
  /** Where it is served: `<prefix><name>.<hash>.<kind>`. */
  path: string;
  type: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** Reads `static/<name>.<kind>` and names it by a hash of its content under `prefix`. */
export function staticAsset(name: string, kind: keyof typeof TYPES, prefix: string = ASSETS_PREFIX): StaticAsset {
  const identity = readFileSync(new URL(`${name}.${kind}`, STATIC_DIR));
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 12);
  return {
    path: `${prefix}${name}.${hash}.${kind}`,
    type: TYPES[kind],
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
  };
}

/** Answers a GET or HEAD of the asset: a year of cache, Brotli or gzip when the browser takes it. */
export function serveAsset(ctx: AppContext, asset: StaticAsset): void {
  const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
  ctx.set('Cache-Control', IMMUTABLE);
  ctx.set('Vary', 'Accept-Encoding');
  ctx.set('Content-Type', asset.type);
  if (encoding === 'br' || encoding === 'gzip') ctx.set('Content-Encoding', encoding);
  ctx.body = encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.identity;
}

/** The assets' public paths, for the pages' <link> and <script>. */
export interface AssetPaths {
  css: string;
  js: string;
}

export interface BoardAssets {
  paths: AssetPaths;
  /** Answers a GET or HEAD of an asset; false when the path names none. */
  serve(ctx: AppContext): boolean;
}

export function boardAssets(): BoardAssets {
  const css = staticAsset('board', 'css');
  const js = staticAsset('board', 'js');
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
