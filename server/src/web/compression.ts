import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { AppContext } from '../http/context.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this, compressing saves less than it costs (a packet carries it either way). */
const MIN_BYTES = 1_024;
/**
 * Brotli at quality 4: about gzip's speed with a smaller result (a board page of 20 items, 19 KB,
 * becomes about 3 KB). The assets, compressed once, take quality 11 (assets.ts); a page is made
 * per request, where the highest qualities would cost more than the bytes they save.
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

/**
 * A page's HTML as the body, compressed with Brotli or gzip when the browser takes it, in libuv's
 * thread pool (the event loop goes on serving meanwhile). `Vary: Accept-Encoding` either way, so a
 * cache never gives a compressed page to a client that did not ask for one.
 */
export async function sendCompressed(ctx: AppContext, text: string): Promise<void> {
  ctx.vary('Accept-Encoding');
  const bytes = Buffer.from(text);
  const encoding = bytes.length < MIN_BYTES ? 'identity' : ctx.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding === 'br') {
    ctx.body = await brotli(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  } else if (encoding === 'gzip') {
    ctx.body = await gzipAsync(bytes, { level: GZIP_LEVEL });
  } else {
    ctx.body = bytes;
    return;
  }
  ctx.set('Content-Encoding', encoding);
}
