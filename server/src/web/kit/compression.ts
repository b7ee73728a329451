import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, gzip, gzipSync, constants as zlib } from 'node:zlib';
import type { AppContext } from '../../http/context.js';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this, compressing saves less than it costs (a packet carries it either way). */
const MIN_BYTES = 1_024;
/**
 * Up to this, a page is compressed on the event loop: a board page of 20 items (19 KB) takes about
 * 0.1 ms, less than handing it to libuv's thread pool and back costs (measured: the pool made a
 * compressed page cost 0.4 ms more of the server's time). A longer page (the roadmap's 130 KB)
 * goes to the pool, so that no request waits behind it.
 */
const SYNC_MAX_BYTES = 64 * 1_024;
/**
 * Brotli's window: 64 KB, the most a page compressed on the event loop can be, instead of the
 * default 4 MB, whose state each call would allocate for nothing.
 */
const BROTLI_WINDOW_BITS = 16;
/**
 * The fastest levels: a page is compressed per request, where the server's time is worth more
 * than the last few hundred bytes. Measured on the 19 KB page of 20 items: Brotli quality 1 takes
 * 0.07 ms for 2.5 KB (quality 4: 0.12 ms for 2.2 KB), gzip level 3 0.05 ms for 2.4 KB (level 6:
 * 0.17 ms for 2.3 KB). The assets, compressed once, take the highest levels (assets.ts).
 */
const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 1, [zlib.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS } };
const GZIP = { level: 3 };

/**
 * A page's HTML as the body, compressed with Brotli or gzip when the browser takes it.
 * `Vary: Accept-Encoding` either way, so a cache never gives a compressed page to a client that
 * did not ask for one.
 */
export async function sendCompressed(ctx: AppContext, text: string): Promise<void> {
  ctx.vary('Accept-Encoding');
  const bytes = Buffer.from(text);
  const encoding = bytes.length < MIN_BYTES || ctx.get('accept-encoding') === '' ? 'identity' : ctx.acceptsEncodings('br', 'gzip', 'identity');
  if (encoding !== 'br' && encoding !== 'gzip') {
    ctx.body = bytes;
    return;
  }
  const sync = bytes.length <= SYNC_MAX_BYTES;
  if (encoding === 'br') ctx.body = sync ? brotliCompressSync(bytes, BROTLI) : await brotliAsync(bytes, BROTLI);
  else ctx.body = sync ? gzipSync(bytes, GZIP) : await gzipAsync(bytes, GZIP);
  ctx.set('Content-Encoding', encoding);
}
