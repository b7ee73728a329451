/**
 * Origins an operator names: the board's framing origins (`feedback board embed --origin`) and the
 * server's public address (`feedback serve --public-url`). Each is one exact origin, as a browser
 * names the page it shows: http or https, a host, maybe a port, and nothing else.
 */

/**
 * What the text may be before it is parsed: a scheme, `//`, a host (and port) with no path, query,
 * fragment, user, backslash or space, and at most a closing slash. A URL parser would take
 * `https://a.example/x` or `https://u@a.example` and give an origin that is not what was typed.
 */
const ORIGIN_TEXT = /^https?:\/\/[^/?#@\\\s]+\/?$/i;

/**
 * A host as CSP's host-source can name it exactly: DNS labels of letters, digits and hyphens (an
 * IPv4 address is such a name too). No wildcard (`*`, `*.example.com`: every site, or every
 * subdomain), and nothing CSP would read as the end of the source or of the directive (`;`, `,`).
 */
const EXACT_HOST = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * The origin `given` names (`https://app.example.com`, `http://localhost:8080`: lower-cased, the
 * scheme's usual port left out), or undefined when it is not exactly one origin: a wildcard, a
 * path, another scheme, a CSP keyword (`'self'`, `'none'`), or anything else.
 */
export function exactOrigin(given: string): string | undefined {
  if (!ORIGIN_TEXT.test(given)) return undefined;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return undefined;
  }
  if (!EXACT_HOST.test(url.hostname)) return undefined;
  return url.origin;
}
