import { expect } from 'chai';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { isIP, type AddressInfo, type LookupFunction, type Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { request, type Dispatcher } from 'undici';
import {
  checkWebhookUrl,
  isPublicAddress,
  MAX_WEBHOOK_URL_LENGTH,
  webhookDispatcher,
  type WebhookDispatcherOptions,
} from '@feedbackd/server/testing';

/**
 * Webhook targets (issue 27): an API caller chooses the URL, the server connects to it, so the
 * server must never connect to an address that is not public unless its operator says so.
 */
describe('webhook targets: which addresses are public', () => {
  const table: [string, boolean][] = [
    ['93.184.216.34', true], ['1.1.1.1', true], ['8.8.8.8', true], ['9.255.255.255', true], ['11.0.0.0', true],
    ['0.0.0.0', false], ['0.255.255.255', false], ['10.0.0.1', false], ['10.255.255.255', false],
    ['127.0.0.1', false], ['127.255.255.254', false], ['169.254.169.254', false], ['169.254.0.1', false],
    ['172.15.255.255', true], ['172.16.0.0', false], ['172.31.255.255', false], ['172.32.0.0', true],
    ['192.167.255.255', true], ['192.168.0.1', false], ['192.169.0.0', true],
    ['100.63.255.255', true], ['100.64.0.0', false], ['100.127.255.255', false], ['100.128.0.0', true],
    ['192.0.0.8', false], ['192.0.1.1', true], ['192.0.2.1', false], ['192.0.3.0', true],
    ['198.17.255.255', true], ['198.18.0.0', false], ['198.19.255.255', false], ['198.20.0.0', true],
    ['198.51.100.7', false], ['203.0.113.9', false], ['223.255.255.255', true],
    ['224.0.0.1', false], ['239.255.255.250', false], ['240.0.0.1', false], ['255.255.255.255', false],
  ];
  const table6: [string, boolean][] = [
    ['2606:4700:4700::1111', true], ['2a00:1450:4001:80b::200e', true], ['2001:4860:4860::8888', true],
    ['::', false], ['::1', false], ['0:0:0:0:0:0:0:1', false], ['fc00::1', false], ['fd12:3456::1', false],
    ['fe80::1', false], ['fe80::1%eth0', false], ['febf::1', false], ['ff02::1', false], ['ff0e::1', false],
    ['2001:db8::1', false], ['2001:db8:ffff::1', false], ['3fff::1', false], ['100::1', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false], // Teredo, whatever it hides
  ];
  const embedded: [string, boolean][] = [
    ['::ffff:127.0.0.1', false], ['::ffff:7f00:1', false], ['::ffff:169.254.169.254', false], ['::ffff:a9fe:a9fe', false],
    ['::ffff:10.0.0.1', false], ['::ffff:93.184.216.34', true], ['::ffff:5db8:d822', true],
    ['::127.0.0.1', false], ['::93.184.216.34', true], // IPv4-compatible
    ['64:ff9b::127.0.0.1', false], ['64:ff9b::a00:1', false], ['64:ff9b::5db8:d822', true], ['64:ff9b:1::5db8:d822', false],
    ['2002:7f00:1::1', false], ['2002:c0a8:101::', false], ['2002:5db8:d822::1', true], // 6to4
  ];
  const judged = (rows: [string, boolean][]) => Object.fromEntries(rows.map(([ip]) => [ip, isPublicAddress(ip)]));

  it('when an IPv4 address is judged, then only a globally routable one is public, to the edge of each range', () => {
    expect(judged(table)).to.deep.equal(Object.fromEntries(table));
  });

  it('when an IPv6 address is judged, then only global unicast outside Teredo, documentation and benchmarking is public', () => {
    expect(judged(table6)).to.deep.equal(Object.fromEntries(table6));
  });

  it('when an IPv6 address carries an IPv4 one (mapped, compatible, NAT64, 6to4), then the IPv4 inside is judged, in dotted or hex form', () => {
    expect(judged(embedded)).to.deep.equal(Object.fromEntries(embedded));
  });

  it('when the text is not an address, then it is not public', () => {
    for (const text of ['', 'localhost', 'example.com', '127.1', '0x7f000001', '010.0.0.1', '1.2.3.4.5', '::ffff:1.2.3']) {
      expect(isPublicAddress(text), text).to.equal(false);
    }
  });
});

describe('webhook targets: the URL check at subscription', () => {
  const reason = (text: string) => {
    const check = checkWebhookUrl(text);
    return check.ok ? null : check.reason;
  };

  it('when the URL is an absolute http(s) URL to a name or a public address, then it is accepted as parsed', () => {
    const check = checkWebhookUrl('https://hooks.example.com/feedback?project=7');
    expect(check.ok && check.url.href).to.equal('https://hooks.example.com/feedback?project=7');
    expect(reason('http://93.184.216.34:8080/in')).to.equal(null);
    expect(reason('http://[2606:4700:4700::1111]/in')).to.equal(null);
    // What a name resolves to is judged when it is connected to, not now.
    expect(reason('http://localhost/in')).to.equal(null);
  });

  it('when the URL is not absolute, or not http or https, then the reason says so', () => {
    for (const text of ['hooks.example.com/in', '/in', '', 'https://', 'http://exa mple.com/']) {
      expect(reason(text), text).to.equal('url must be an absolute URL, such as https://example.com/hooks');
    }
    for (const text of ['ftp://example.com/in', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://example.com/']) {
      expect(reason(text), text).to.equal('url must use http or https');
    }
  });

  it('when the URL carries a user name or a password, then it is refused', () => {
    for (const text of ['https://user:secret@example.com/', 'https://user@example.com/', 'https://:secret@example.com/']) {
      expect(reason(text), text).to.equal('url must not contain a user name or password');
    }
  });

  it('when the URL is longer than 2048 characters, then it is refused, and 2048 is still accepted', () => {
    const base = 'https://example.com/';
    expect(reason(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length))).to.equal(null);
    expect(reason(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length + 1))).to.equal('url must be at most 2048 characters long');
  });

  it('when the host is an address that is not public, in any spelling, then it is refused unless private targets are allowed', () => {
    const refused: [string, string][] = [
      ['http://127.0.0.1:3000/', '127.0.0.1'], ['http://[::1]/', '::1'], ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'], ['http://0x7f.1/', '127.0.0.1'],
      ['http://2130706433/', '127.0.0.1'], ['https://10.1.2.3/', '10.1.2.3'], ['http://0/', '0.0.0.0'],
    ];
    for (const [text, address] of refused) {
      expect(reason(text), text).to.equal(`url must not point at a private address (${address})`);
      expect(checkWebhookUrl(text, { allowPrivate: true }).ok, text).to.equal(true);
    }
  });
});

describe('webhook targets: the dispatcher connects only to checked public addresses', () => {
  let server: Server;
  let port: number;
  const seen: IncomingMessage[] = [];
  // Every TCP connection attempt of this process, as the address and port Node connects to.
  const attempts: string[] = [];
  const dispatchers: Dispatcher[] = [];
  const onSocket = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    socket.on('connectionAttempt', (address: string, attemptPort: number) => {
      attempts.push(address);
      // Nothing here leaves the machine: where the connection went is all a test needs to know.
      if (address !== '127.0.0.1' && address !== '::1') {
        process.nextTick(() => socket.destroy(new Error(`stopped by the test at ${address}:${attemptPort}`)));
      }
    });
  };

  before(async () => {
    subscribe('net.client.socket', onSocket);
    server = createServer((req, res) => {
      seen.push(req);
      req.resume();
      if (req.url === '/moved') res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
      else res.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    seen.length = 0;
    attempts.length = 0;
  });
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.close()));
  });
  after(async () => {
    unsubscribe('net.client.socket', onSocket);
    server.close();
    await once(server, 'close');
  });

  const dispatcher = (options: WebhookDispatcherOptions) => {
    const made = webhookDispatcher(options);
    dispatchers.push(made);
    return made;
  };
  /** A lookup that answers from `answer` (called with the number of the call, from 1) and counts. */
  const fakeLookup = (answer: (call: number) => string[]) => {
    const calls: string[] = [];
    const lookup: LookupFunction = (hostname, options, callback) => {
      calls.push(hostname);
      const addresses = answer(calls.length).map((address) => ({ address, family: isIP(address) }));
      setImmediate(() => (options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family)));
    };
    return { lookup, calls };
  };
  const post = async (url: string, through: Dispatcher) => {
    const response = await request(url, { dispatcher: through, method: 'POST', body: '{"event":"feedback.created"}' });
    await response.body.dump();
    return response.statusCode;
  };
  const failure = (url: string, through: Dispatcher) => post(url, through).then(() => null, (error: unknown) => error as Error & { code?: string });

  it('when the target is the local server at 127.0.0.1, then it is refused before any connection, and allowed with allowPrivate', async () => {
    const error = await failure(`http://127.0.0.1:${port}/hook`, dispatcher({ allowPrivate: false }));
    expect(error).to.include({ code: 'ERR_WEBHOOK_PRIVATE_TARGET' });
    expect(error?.message).to.equal('webhook target 127.0.0.1 is a private address (feedback serve --webhooks-allow-private allows it)');
    expect(attempts).to.deep.equal([]);
    expect(seen).to.have.length(0);

    expect(await post(`http://127.0.0.1:${port}/hook`, dispatcher({ allowPrivate: true }))).to.equal(200);
    expect(seen.map((req) => `${req.method} ${req.url}`)).to.deep.equal(['POST /hook']);
  });

  it('when the target is an IPv6 literal for loopback ([::1], [::ffff:127.0.0.1], hex-mapped), then it is refused before any connection', async () => {
    const through = dispatcher({ allowPrivate: false });
    for (const host of ['[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[64:ff9b::7f00:1]']) {
      expect(await failure(`http://${host}:${port}/hook`, through), host).to.include({ code: 'ERR_WEBHOOK_PRIVATE_TARGET' });
    }
    expect(attempts).to.deep.equal([]);
  });

  it('when a host name resolves to 127.0.0.1, or to a public and a private address, then it is refused before any connection', async () => {
    const { lookup } = fakeLookup(() => ['127.0.0.1']);
    const error = await failure(`http://hooks.example.test:${port}/hook`, dispatcher({ allowPrivate: false, lookup }));
    expect(error).to.include({ code: 'ERR_WEBHOOK_PRIVATE_TARGET' });
    expect(error?.message).to.equal(
      'webhook target hooks.example.test resolves to 127.0.0.1, a private address (feedback serve --webhooks-allow-private allows it)',
    );
    const mixed = fakeLookup(() => ['93.184.216.34', '10.0.0.5']);
    expect(await failure(`http://hooks.example.test:${port}/hook`, dispatcher({ allowPrivate: false, lookup: mixed.lookup }))).to.include({
      code: 'ERR_WEBHOOK_PRIVATE_TARGET',
      message: 'webhook target hooks.example.test resolves to 10.0.0.5, a private address (feedback serve --webhooks-allow-private allows it)',
    });
    // The TLS connector is given the same lookup.
    expect(await failure(`https://hooks.example.test:${port}/hook`, dispatcher({ allowPrivate: false, lookup }))).to.include({
      code: 'ERR_WEBHOOK_PRIVATE_TARGET',
    });
    expect(attempts).to.deep.equal([]);
    expect(seen).to.have.length(0);
  });

  it('when the lookup answers a public address and then 127.0.0.1 (DNS rebinding), then the connection goes to the checked public address and never to 127.0.0.1', async () => {
    const rebinding = fakeLookup((call) => (call === 1 ? ['93.184.216.34'] : ['127.0.0.1']));
    const through = dispatcher({ allowPrivate: false, lookup: rebinding.lookup });
    // A guard that resolved once to check and again to connect would reach the local server here.
    const first = await failure(`http://rebind.example.test:${port}/hook`, through);
    expect(first?.message).to.equal(`stopped by the test at 93.184.216.34:${port}`);
    expect(rebinding.calls).to.deep.equal(['rebind.example.test']);
    // The next connection resolves anew and is refused on the new answer.
    expect(await failure(`http://rebind.example.test:${port}/hook`, through)).to.include({ code: 'ERR_WEBHOOK_PRIVATE_TARGET' });
    expect(rebinding.calls).to.have.length(2);
    expect(attempts).to.deep.equal(['93.184.216.34']);
    expect(seen).to.have.length(0);
  });

  it('when a name resolves to the local server with allowPrivate, then the connection goes to the resolved address and the Host header keeps the name', async () => {
    const { lookup, calls } = fakeLookup(() => ['127.0.0.1']);
    expect(await post(`http://hooks.example.test:${port}/hook`, dispatcher({ allowPrivate: true, lookup }))).to.equal(200);
    expect(calls).to.deep.equal(['hooks.example.test']);
    expect(seen.map((req) => req.headers.host)).to.deep.equal([`hooks.example.test:${port}`]);
  });

  it('when a TLS target resolves to the local server with allowPrivate, then the TLS server name (SNI) is still the host name', async () => {
    const names: string[] = [];
    // No certificate: the handshake stops once the client has said which name it wants.
    const tlsServer: TlsServer = createTlsServer({ SNICallback: (name, done) => (names.push(name), done(new Error('no certificate'))) });
    tlsServer.on('tlsClientError', () => {});
    tlsServer.listen(0, '127.0.0.1');
    await once(tlsServer, 'listening');
    try {
      const { lookup } = fakeLookup(() => ['127.0.0.1']);
      const url = `https://hooks.example.test:${(tlsServer.address() as AddressInfo).port}/hook`;
      expect(await failure(url, dispatcher({ allowPrivate: true, lookup }))).to.be.an('error');
      expect(names).to.deep.equal(['hooks.example.test']);
    } finally {
      tlsServer.close();
    }
  });

  it('when the target answers with a redirect, then it is not followed', async () => {
    expect(await post(`http://127.0.0.1:${port}/moved`, dispatcher({ allowPrivate: true }))).to.equal(302);
    expect(seen.map((req) => req.url)).to.deep.equal(['/moved']);
  });

  it('when the lookup fails, then the request fails with its error', async () => {
    const lookup: LookupFunction = (hostname, _options, callback) =>
      setImmediate(() => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []));
    expect(await failure(`http://nowhere.example.test:${port}/hook`, dispatcher({ allowPrivate: false, lookup }))).to.include({ code: 'ENOTFOUND' });
  });
});
