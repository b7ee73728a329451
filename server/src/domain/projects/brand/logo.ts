import { createHash } from 'node:crypto';

/*
 * A board's logo (`feedback board brand --logo`): stored in the database and served by the board
 * itself, so it is checked here, by its bytes and never by a file name or a declared type. Raster
 * images only: an SVG is a document that may carry script and links, and the board would serve it
 * from its own origin, so it is refused rather than sanitised.
 */

/** The largest logo taken: a header's picture, not a photograph. */
export const LOGO_MAX_BYTES = 256 * 1024;

/** The types a logo may be, by what its first bytes say. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** A logo that passed the checks: its type and size as its bytes say, and the hash that names it. */
export interface CheckedLogo {
  bytes: Buffer;
  type: LogoType;
  width: number;
  height: number;
  /** SHA-256 of the bytes, base64url, 22 characters: the logo's URL and ETag change with it. */
  hash: string;
}

/** Why a file cannot be a logo, in words for the operator. */
export class InvalidLogoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidLogoError';
  }
}

/** The logo, checked: size, type by magic bytes, and readable dimensions; or InvalidLogoError. */
export function checkLogo(bytes: Buffer): CheckedLogo {
  if (bytes.length === 0) throw new InvalidLogoError('the logo is empty');
  if (bytes.length > LOGO_MAX_BYTES) {
    throw new InvalidLogoError(`the logo is ${Math.ceil(bytes.length / 1024)} KB; at most ${LOGO_MAX_BYTES / 1024} KB is taken: make it smaller (a header shows it about 32 pixels high)`);
  }
  const image = sniff(bytes);
  if (!image) {
    if (looksLikeSvg(bytes)) throw new InvalidLogoError('SVG logos are refused (an SVG can carry script): give a PNG, JPEG, WebP or GIF');
    throw new InvalidLogoError('the logo is not a PNG, JPEG, WebP or GIF image (its first bytes say which, whatever the file is called)');
  }
  if (image.width < 1 || image.height < 1) throw new InvalidLogoError(`the logo's ${image.type} header gives no size: is the file whole?`);
  return { bytes, ...image, hash: createHash('sha256').update(bytes).digest('base64url').slice(0, 22) };
}

type Sniffed = { type: LogoType; width: number; height: number };

/** The image's type and dimensions from its header, or undefined when it is none of LOGO_TYPES. */
function sniff(b: Buffer): Sniffed | undefined {
  const ascii = (start: number, end: number) => b.toString('latin1', start, end);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a && ascii(12, 16) === 'IHDR') {
    return { type: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 10 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) {
    return { type: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return webp(b, ascii(12, 16));
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  return undefined;
}

/** A WebP's size from its first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X). */
function webp(b: Buffer, chunk: string): Sniffed | undefined {
  if (chunk === 'VP8 ') return { type: 'image/webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { type: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { type: 'image/webp', width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** A JPEG's size from its first start-of-frame segment (SOF0..SOF15, not DHT, JPG or DAC). */
function jpeg(b: Buffer): Sniffed | undefined {
  let at = 2;
  while (at + 9 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { type: 'image/jpeg', height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    at += 2 + b.readUInt16BE(at + 2);
  }
  return undefined;
}

/** Text that opens with an XML declaration or an <svg> element (after a BOM and blanks). */
function looksLikeSvg(b: Buffer): boolean {
  const head = b.toString('utf8', 0, 1024).replace(/^\ufeff/, '').trimStart().toLowerCase();
  return head.startsWith('<svg') || ((head.startsWith('<?xml') || head.startsWith('<!doctype svg') || head.startsWith('<!--')) && head.includes('<svg'));
}
