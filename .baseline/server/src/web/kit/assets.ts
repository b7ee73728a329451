import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import type { AppContext } from '../../http/context.js';

/*
 * The pages' stylesheet and scripts, served by the server itself (no CDN, no external font) under
 * names that carry a hash of their content: a browser may keep them for a year without asking
 * again, and a new release's files have new names. They are read, hashed and compressed once,
 * when the app is made.
 *
 * Each area keeps its files in its own static/ folder under src (plain CSS and JavaScript, which
 * tsc does not copy) and they are read from there, from dist as from src: the package ships src
 * beside dist (server/package.json, "files"). An area names its folder (staticFolder).
 */

/**
 * An area's static/ folder in the sources, from the URL of one of its modules: from
 * `server/dist/web/<area>/x.js` as from `server/src/web/<area>/x.ts`, it is
 * `server/src/web/<area>/static/`.
 */
export function staticFolder(moduleUrl: string): URL {
  const area = new URL('.', moduleUrl).pathname.split('/').filter(Boolean).at(-1)!;
  return new URL(`../../../src/web/${area}/static/`, moduleUrl);
}

/** Where assets are served. */
export const ASSETS_PREFIX = '/assets/';

const TYPES = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' } as const;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A file of an area's static/ folder, read, hashed and compressed once. */
export interface StaticAsset {
  /** Where it is served: `<prefix><name>.<hash>.<kind>`. */
  path: string;
  type: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** Reads `<folder>/<name>.<kind>` and names it by a hash of its content under `prefix`. */
export function staticAsset(folder: URL, name: string, kind: keyof typeof TYPES, prefix: string = ASSETS_PREFIX): StaticAsset {
  const identity = readFileSync(new URL(`${name}.${kind}`, folder));
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

/** The board's stylesheet and script (web/board/assets.ts), which the team's pages use too for the stylesheet. */
export interface BoardAssets {
  paths: AssetPaths;
  /** Answers a GET or HEAD of an asset; false when the path names none. */
  serve(ctx: AppContext): boolean;
}
