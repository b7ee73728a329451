import { isIPv4, isIPv6 } from 'node:net';
import { parse } from 'tldts';

/*
 * Whether a text has a link, for moderation's "hold links" (domain/moderation/hold-reason.ts, docs/moderation.md).
 * The only link finder that decides a hold: a spammer writes links so that people can still open
 * them but a filter misses them, so the text is first made as a reader sees it, then searched for
 * anything a browser, a mail client or a person would take to an address:
 *
 * - NFKC, so fullwidth letters and dots (ｅｘａｍｐｌｅ．ｃｏｍ) are the ASCII ones, and the
 *   ideographic full stops (。 ｡) and a few other dot-likes are dots, as are dots written out
 *   (`example[.]com`, `example (dot) com`); every default-ignorable character (zero-width
 *   spaces and joiners, soft hyphens, bidi controls, variation selectors) is removed, so
 *   `exa<U+200B>mple.com` reads `example.com`.
 * - A scheme (`https://`, `ftp://`, any `name://`), `www.`, `mailto:`.
 * - A name under a suffix of the public-suffix list (tldts: every TLD there is, `.app`, `.dev`,
 *   `.xyz`, `.zip`, `.рф`, and `co.uk`-like suffixes), with or without a port or a path.
 * - A host with a port: any dotted name (`evil.internal:8443`, whatever its suffix), one label
 *   with a path after the port (`intranet:8080/admin`), `localhost:3000`.
 * - An IPv4 address (dotted quad), an IPv6 address (bracketed, or bare with a digit).
 *
 * Holding is a soft decision (the team approves what was held by mistake), so a text that merely
 * looks like an address is held too: a file name under a TLD (`notes.zip`, `readme.md`), words
 * joined by a dot without a space (`done.now`), a version with four numbers.
 */

/** Characters NFKC leaves alone that readers take for a full stop. */
const DOT_LIKES = /[\u3002\uFF61\uFE12\u2E3C\u06D4\u0701\u0702]/gu;
/** A dot written out so that no finder sees it: `example[.]com`, `example (dot) com`. */
const SPELLED_DOTS = /\s?[[({]\s?(?:\.|dot)\s?[\])}]\s?/giu;
/** What a reader never sees: zero-width characters, joiners, soft hyphens, bidi controls, variation selectors. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/** The text as a reader sees it, for finding links in (never stored: the post keeps what was written). */
export function readableText(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').replace(DOT_LIKES, '.').replace(SPELLED_DOTS, '.');
}

const SCHEME = /(?:^|[^\p{L}\p{N}+.-])[a-z][a-z0-9+.-]{0,30}:\/\/[^\s/?#]|\bmailto:\S|\bwww\.[\p{L}\p{N}]/iu;
/** Dot-separated labels of letters, digits (and marks) with inner hyphens: a name to look up. */
const NAME = /[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]*[\p{L}\p{N}\p{M}])?(?:\.[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]*[\p{L}\p{N}\p{M}])?)+/gu;
const IPV4 = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\.?\d)/g;
const BRACKETED_IPV6 = /\[([0-9a-f:.]{2,45})(?:%[\w.-]+)?\]/gi;
const BARE_IPV6 = /(?<![\w:.])[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?::(?:\d{1,3}\.){3}\d{1,3})?(?![\w:])/gi;
const LOCALHOST_PORT = /\blocalhost:\d{1,5}\b/i;
/** A host with a port: dotted, its last label starting with a letter (`evil.internal:8443`), or one label and a path after the port (`intranet:8080/admin`). */
const HOST_PORT = /(?:[\p{L}\p{N}-]+\.)+\p{L}[\p{L}\p{N}-]*:\d{1,5}(?![\d.])|(?<![\p{L}\p{N}.-])\p{L}[\p{L}\p{N}-]*:\d{1,5}\//u;

/** Whether a text (a title, a description, a comment) has a link, as moderation holds them. */
export function hasLink(text: string): boolean {
  const readable = readableText(text);
  if (SCHEME.test(readable) || LOCALHOST_PORT.test(readable) || HOST_PORT.test(readable)) return true;
  for (const [address] of readable.matchAll(IPV4)) if (isIPv4(address)) return true;
  for (const [, address] of readable.matchAll(BRACKETED_IPV6)) if (isIPv6(address!)) return true;
  for (const [address] of readable.matchAll(BARE_IPV6)) if (/\d/.test(address) && isIPv6(address)) return true;
  for (const [name] of readable.matchAll(NAME)) {
    // Under a public suffix of ICANN's part of the list: example.app, example.co.uk; not node.js, 1.2.3.
    const found = parse(name.toLowerCase(), { validateHostname: false });
    if (found.isIcann && found.domain) return true;
  }
  return false;
}
