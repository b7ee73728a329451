/**
 * No door into the private network (issue 27): a webhook URL is chosen by an API caller and POSTed
 * to by the server, so without a guard it is a way to reach what only the server can reach (the
 * cloud's metadata service, a database on localhost, the office LAN). The guard has two halves:
 * checkWebhookUrl() when a subscription is made, and webhookDispatcher() at every connection, the
 * one that counts, since a name can resolve anywhere and resolve elsewhere a second later.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { WEBHOOK_URL_MAX_LENGTH } from '@feedbackd/sdk/contract';

/** The contract's limit, checked here too for callers that skip the contract (the guard's own tests). */
export const MAX_WEBHOOK_URL_LENGTH = WEBHOOK_URL_MAX_LENGTH;

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The check of a webhook URL when it is registered; the reason of a refusal is one sentence for the
 * 400 of the API. A host given as an address can be judged now; a name only when it is connected
 * to, by webhookDispatcher(), since what it resolves to can change after this check.
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

const ALLOW_HINT = 'feedback serve --webhooks-allow-private allows it';

/** A webhook refused because its host is, or resolves to, an address that is not public. */
export class WebhookPrivateTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_PRIVATE_TARGET';

  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(
      host === address
        ? `webhook target ${host} is a private address (${ALLOW_HINT})`
        : `webhook target ${host} resolves to ${address}, a private address (${ALLOW_HINT})`,
    );
    this.name = 'WebhookPrivateTargetError';
  }
}

export interface WebhookDispatcherOptions {
  /** Deliver to any address: for a receiver on the same machine or network, as the operator decides. */
  allowPrivate: boolean;
  /** How long a connection may take, the lookup included. Default 10 s. */
  connectTimeoutMs?: number;
  /** Resolves host names, as dns.lookup (the default) does; the tests pass their own. */
  lookup?: LookupFunction;
}

/**
 * The undici dispatcher of webhook deliveries. Each new connection resolves its host once, through
 * the `lookup` hook that undici's connector hands on to net.connect/tls.connect; the hook refuses
 * the connection unless every address of the answer is public, and Node then connects to exactly
 * the addresses it returned. The check and the connect share one answer, so a resolver that says a
 * public address to the check and 127.0.0.1 to the connect (DNS rebinding) cannot get in. Only the
 * TCP target changes: the URL's host is still the TLS SNI, the certificate's name and the Host
 * header. It adds no redirect interceptor, so undici's request() follows no redirect; fetch()
 * follows by default and must be given `redirect: 'manual'` (a hop it follows is a new connection
 * to another origin and is checked all the same).
 */
export function webhookDispatcher(options: WebhookDispatcherOptions): Dispatcher {
  const resolve: LookupFunction = options.lookup ?? dnsLookup;
  const connector = buildConnector({
    timeout: options.connectTimeoutMs ?? 10_000,
    lookup: options.allowPrivate ? resolve : publicOnly(resolve),
  });
  if (options.allowPrivate) return new Agent({ connect: connector });
  return new Agent({
    connect(target, callback) {
      // Node asks no lookup for an address literal ([::1], 127.0.0.1): it is checked here instead.
      // undici has already taken the brackets off an IPv6 one.
      if (isIP(target.hostname) !== 0 && !isPublicAddress(target.hostname)) {
        // On the next tick, as every other failed connection reaches undici, never inside its call.
        process.nextTick(callback, new WebhookPrivateTargetError(target.hostname, target.hostname), null);
        return;
      }
      // The socket is returned so that undici can cancel a connection still being made.
      return connector(target, callback);
    },
  });
}

/** `resolve`, asked for every address of the name, with an answer refused unless all are public. */
function publicOnly(resolve: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, answer, family) => {
      if (error !== null) return callback(error, []);
      const addresses: LookupAddress[] = Array.isArray(answer) ? answer : [{ address: answer, family: family ?? isIP(answer) }];
      const first = addresses[0];
      if (first === undefined) {
        return callback(Object.assign(new Error(`webhook target ${hostname} resolves to no address`), { code: 'ENOTFOUND' }), []);
      }
      // One private address in the answer refuses it all: with more than one address Node tries
      // them in turn, so any of them may be the one connected to.
      const refused = addresses.find(({ address }) => !isPublicAddress(address));
      if (refused !== undefined) return callback(new WebhookPrivateTargetError(hostname, refused.address), []);
      if (options.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}
