import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, gzip, gzipSync, constants as zlib } from 'node:zlib';
import type { AppContext } from '../../http/context.js';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this, compressing saves less than it costs (a packet carries it either way). */
const MIN_BYTES = 1_024;
/**
 * Up to this many characters, a page is compressed on the event loop: a board page of 20 items
 * (about 26 K characters) takes about 0.1 to 0.2 ms, less than handing it to libuv's thread pool
 * and back costs (measured: the pool made a compressed page cost 0.4 ms more of the server's
 * time). A longer page (the roadmap's 130 KB) goes to the pool, so that no request waits behind it.
 */
const SYNC_MAX_CHARACTERS = 64 * 1_024;
/**
 * Brotli's window: 64 KB, the size of a long page compressed on the event loop, instead of the
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
 * Pages kept encoded, by their text, per encoding. A board's pages are read far more often than
 * they change, and the same text encodes to the same bytes: a page read again (the same list, for
 * every visitor who voted for none of it) skips Brotli, gzip and the UTF-8 copy, which were most of
 * what the server spent on a page beyond its query (about a third, profiled under wrk). A page
 * that differs by one character is a miss and is encoded as before: nothing stale can be sent.
 * V8 hashes a string this long by its length alone, so a look-up costs one comparison with the
 * pages of the same length, not a pass over the text. Bounded: the oldest page goes first.
 */
export class EncodedPages {
  private readonly pages = new Map<string, Buffer>();

  constructor(private readonly maxPages: number) {}

  encoded(text: string, encode: (text: string) => Buffer): Buffer {
    const kept = this.pages.get(text);
    if (kept) return kept;
    const bytes = encode(text);
    if (this.pages.size >= this.maxPages) this.pages.delete(this.pages.keys().next().value!);
    this.pages.set(text, bytes);
    return bytes;
  }
}

/**
 * Pages kept per encoding: enough for a board's first pages in its languages and filters. Each is
 * at most 64 K characters (as text, and as up to three times as many bytes): 3 x 16 pages are a
 * few MB for pages like the board's (26 K), and at most about 15 MB, whatever the traffic.
 */
const KEPT_PAGES = 16;
const kept = { identity: new EncodedPages(KEPT_PAGES), br: new EncodedPages(KEPT_PAGES), gzip: new EncodedPages(KEPT_PAGES) };

const utf8 = (text: string) => Buffer.from(text);
const brotli = (text: string) => brotliCompressSync(text, BROTLI);
const gzipped = (text: string) => gzipSync(text, GZIP);

/**
 * A page's HTML as the body, compressed with Brotli or gzip when the browser takes it.
 * `Vary: Accept-Encoding` either way, so a cache never gives a compressed page to a client that
 * did not ask for one.
 */
export async function sendCompressed(ctx: AppContext, text: string): Promise<void> {
  ctx.vary('Accept-Encoding');
  // A string has at least as many bytes as characters: only a short one needs its bytes counted.
  const small = text.length < MIN_BYTES && Buffer.byteLength(text) < MIN_BYTES;
  const encoding = small || ctx.get('accept-encoding') === '' ? 'identity' : ctx.acceptsEncodings('br', 'gzip', 'identity');
  const sync = text.length <= SYNC_MAX_CHARACTERS;
  if (encoding !== 'br' && encoding !== 'gzip') {
    ctx.body = sync ? kept.identity.encoded(text, utf8) : Buffer.from(text);
    return;
  }
  if (sync) ctx.body = kept[encoding].encoded(text, encoding === 'br' ? brotli : gzipped);
  else ctx.body = encoding === 'br' ? await brotliAsync(text, BROTLI) : await gzipAsync(text, GZIP);
  ctx.set('Content-Encoding', encoding);
}
