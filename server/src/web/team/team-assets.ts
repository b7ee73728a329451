import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import type { AppContext } from '../../http/context.js';

/**
 * The team pages' script (static/team.js: keyboard shortcuts), served by the team's middleware
 * under /team/assets/ with a hash of its content in its name, so it is cached for a year like the
 * board's assets (web/assets.ts), which the team pages use for their stylesheet. Only team pages
 * load it, so the board's visitors never download it.
 */
const SOURCE = new URL('../../../src/web/static/team.js', import.meta.url);

const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface TeamScript {
  /** Where the pages' <script> points. */
  path: string;
  /** Answers a GET or HEAD of the script; false when the path is not it. */
  serve(ctx: AppContext): boolean;
}

export function teamScript(): TeamScript {
  const identity = readFileSync(SOURCE);
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 12);
  const path = `/team/assets/team.${hash}.js`;
  const gzip = gzipSync(identity, { level: 9 });
  const br = brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } });
  return {
    path,
    serve(ctx) {
      if (ctx.path !== path || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
      const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
      ctx.set('Cache-Control', IMMUTABLE);
      ctx.set('Vary', 'Accept-Encoding');
      ctx.set('Content-Type', 'text/javascript; charset=utf-8');
      if (encoding === 'br' || encoding === 'gzip') ctx.set('Content-Encoding', encoding);
      ctx.body = encoding === 'br' ? br : encoding === 'gzip' ? gzip : identity;
      return true;
    },
  };
}
