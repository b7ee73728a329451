/**
 * No door into the private network (issue 27): a webhook URL is chosen by an API caller and POSTed
 * to by the server, so without a guard it is a way to reach what only the server can reach (the
 * cloud's metadata service, a database on localhost, the office LAN). Here: which addresses are
 * public, and checkWebhookUrl() when a subscription is made.
 */
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The check of a webhook URL when it is registered; the reason of a refusal is one sentence for the
 * 400 of the API. A host given as an address can be judged now; a name only when it is connected
 * to, since what it resolves to can change after this check.
 */
export function checkWebhookUrl(text: string, options: { allowPrivate: boolean } = { allowPrivate: false }): WebhookUrlCheck {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return refuse(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters long`);
  const url = URL.parse(text);
  if (url === null) return refuse('url must be an absolute URL, such as https://example.com/hooks');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('url must use http or https');
  // Credentials in a URL would be stored, listed and logged with it.
  if (url.username !== '' || url.password !== '') return refuse('url must not contain a user name or password');
  // A host is present: the WHATWG parser refuses an http(s) URL without one. It has also turned
  // 0x7f.1, 2130706433 and the like into 127.0.0.1.
  const literal = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!options.allowPrivate && isIP(literal) !== 0 && !isPublicAddress(literal)) {
    return refuse(`url must not point at a private address (${literal})`);
  }
  return { ok: true, url };
}

function refuse(reason: string): WebhookUrlCheck {
  return { ok: false, reason };
}

function blockList(type: 'ipv4' | 'ipv6', ...subnets: string[]): BlockList {
  const list = new BlockList();
  for (const subnet of subnets) {
    const [network = '', prefix = ''] = subnet.split('/');
    list.addSubnet(network, Number(prefix), type);
  }
  return list;
}

const notPublicIPv4 = blockList(
  'ipv4',
  '0.0.0.0/8', // "this network", 0.0.0.0 reaches the local host on Linux
  '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', // private
  '100.64.0.0/10', // carrier-grade NAT, the provider's private network
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, with the cloud metadata service at 169.254.169.254
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', // documentation
  '198.18.0.0/15', // benchmarking
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, with the broadcast 255.255.255.255
);
// Only 2000::/3 is global unicast; everything else (::1, fc00::/7, fe80::/10, ff00::/8, ...) is not
// public. Inside it, these are not either.
const globalUnicast = blockList('ipv6', '2000::/3');
const notPublicIPv6 = blockList(
  'ipv6',
  '2001::/32', // Teredo: the address hides its IPv4 and a relay decides where the packets go
  '2001:2::/48', // benchmarking
  '2001:10::/28', '2001:20::/28', // ORCHID, never routed
  '2001:db8::/32', '3fff::/20', // documentation
);

/**
 * Whether a webhook may be delivered to `ip`: false for every address that is not globally
 * routable (loopback, private, link-local, CGNAT, multicast, reserved, documentation, ...) and for
 * anything that is not an address. An IPv6 address that carries an IPv4 one (mapped, compatible,
 * NAT64, 6to4) is judged by the IPv4 inside, since that is where its packets end up.
 */
export function isPublicAddress(ip: string): boolean {
  if (isIPv4(ip)) return !notPublicIPv4.check(ip, 'ipv4');
  const address = ip.replace(/%.*$/, ''); // a zone (fe80::1%eth0) names an interface, not an address
  if (!isIPv6(address)) return false;
  const embedded = embeddedIPv4(ipv6Words(address));
  if (embedded !== null) return isPublicAddress(embedded);
  return globalUnicast.check(address, 'ipv6') && !notPublicIPv6.check(address, 'ipv6');
}

/** The eight 16-bit words of a valid IPv6 address, whatever its spelling. */
function ipv6Words(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text); // ::ffff:1.2.3.4, the last two words
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => parseInt(word, 16)));
  if (tail === undefined) return words(head);
  const [front, back] = [words(head), words(tail)];
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function embeddedIPv4(words: number[]): string | null {
  const [w0, w1, w2, w3, w4, w5, w6 = 0, w7 = 0] = words;
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeroes = (...some: (number | undefined)[]) => some.every((word) => word === 0);
  // ::ffff:0:0/96 mapped; ::/96 compatible, which makes :: 0.0.0.0 and ::1 0.0.0.1, both refused.
  if (zeroes(w0, w1, w2, w3, w4) && (w5 === 0xffff || w5 === 0)) return ipv4(w6, w7);
  if (w0 === 0x64 && w1 === 0xff9b && zeroes(w2, w3, w4, w5)) return ipv4(w6, w7); // NAT64 64:ff9b::/96
  if (w0 === 0x2002) return ipv4(w1 ?? 0, w2 ?? 0); // 6to4 2002:AABB:CCDD::/48
  return null;
}
