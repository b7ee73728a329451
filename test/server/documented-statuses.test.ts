import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { routes, type RouteDefinition } from '@feedbackd/sdk/contract';
import { oneBackend } from '../helpers/backends.js';
import { operationFinder, type DocumentedOperation } from '../helpers/openapi-operations.js';
import { request, withServer } from '../helpers/test-server.js';

/**
 * Issue 37: a POST whose operation takes no body (`testWebhook`, `redeliverWebhookDelivery`)
 * answered 413 and 415, which the OpenAPI document did not list for it. Every operation of the
 * route table is called here with what makes the server refuse a request before or after its
 * route (no key, a public key, an unknown id, input that fails, a body too large or of another
 * type, a URL over 16 KB, a request too slow to arrive), and each status answered must be one the
 * served document lists for that operation.
 */

const ROUTES = Object.entries(routes) as [string, RouteDefinition][];
const LONG_QUERY = `?q=${'a'.repeat(16 * 1024 + 1)}`;

/** The route's path with every parameter an id that exists nowhere. */
const pathOf = (route: RouteDefinition) => route.path.replace(/:\w+/g, () => randomUUID());
const readsBody = (route: RouteDefinition) => route.method === 'POST' || route.method === 'PATCH';

/** A request over a socket of its own that never finishes its headers: the server's 408, as raw text. */
function unfinishedRequest(url: string, method: string, path: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1] ?? 0)));
    socket.on('error', reject);
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer to the unfinished ${method} ${path} within 15 s`)));
  });
}

// The statuses are the routes' and the HTTP layer's, the same on either database: one backend (oneBackend).
const backend = oneBackend();

describe(`Every status answered is one the OpenAPI document lists for the operation (issue 37, a body-less POST's 413 and 415) (${backend.name})`, () => {
  // Short timeouts, so that the slow requests' 408 comes within seconds.
  const server = withServer(backend, { connectionLimits: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 } });
  let find: (method: string, path: string) => DocumentedOperation | undefined;
  let secretKey: string;

  before(async () => {
    const served = await request(server, 'GET', '/api/v1/openapi.json', { apiKey: null });
    find = operationFinder(served.body);
    secretKey = await server.newKey(undefined, 'secret');
  });

  const expectDocumented = (method: string, path: string, status: number, what: string) => {
    const operation = find(method, path);
    expect(operation, `${method} ${path} is an operation of the document`).to.not.equal(undefined);
    expect([...operation!.statuses], `${what}: ${method} ${path.slice(0, 120)} answered ${status}, not listed by ${operation!.operationId}`).to.include(status);
  };

  it('when every operation is called without a key, with a public key, with input that fails, an unknown id and a URL over 16 KB, then each answer is listed for it', async () => {
    for (const [name, route] of ROUTES) {
      const path = pathOf(route);
      const body = readsBody(route) ? { title: 7, url: 'not a url', graceSeconds: -1 } : undefined;
      for (const [what, apiKey] of [
        ['no key', null],
        ['a public key', server.apiKey],
        ['a secret key', secretKey],
      ] as const) {
        const res = await request(server, route.method, path, { apiKey, body });
        expect(res.status, `${name} with ${what}`).to.be.below(500);
        expectDocumented(route.method, path, res.status, `${name} with ${what}`);
      }
      const long = await request(server, route.method, path + LONG_QUERY, { apiKey: secretKey });
      expect(long.status, name).to.equal(431);
      expectDocumented(route.method, path, long.status, `${name} with a URL over 16 KB`);
    }
  });

  it('when every POST and PATCH, those whose operation takes no body included, gets a body over 1 MB, one of another type and one in another charset, then its 413 and 415 are listed for it', async () => {
    const bodyless = ROUTES.filter(([, route]) => readsBody(route) && !route.body).map(([name]) => name);
    expect(bodyless, 'the finding\'s operations are still in the table').to.include.members(['testWebhook', 'redeliverWebhookDelivery']);
    for (const [name, route] of ROUTES.filter(([, route]) => readsBody(route))) {
      const path = pathOf(route);
      const sent: [string, { rawBody: string; headers: Record<string, string> }, number][] = [
        ['a body over 1 MB', { rawBody: JSON.stringify({ x: 'x'.repeat(1024 * 1024) }), headers: { 'content-type': 'application/json' } }, 413],
        ['a text body', { rawBody: '{}', headers: { 'content-type': 'text/plain' } }, 415],
        ['a Latin-1 body', { rawBody: '{}', headers: { 'content-type': 'application/json; charset=latin1' } }, 415],
      ];
      for (const [what, options, status] of sent) {
        const res = await request(server, route.method, path, { apiKey: secretKey, ...options });
        expect(res.status, `${name} with ${what}`).to.equal(status);
        expectDocumented(route.method, path, res.status, `${name} with ${what}`);
      }
    }
  });

  it('when a request to any operation does not arrive in time, then its 408 is listed for the operation', async () => {
    const answers = await Promise.all(ROUTES.map(async ([name, route]) => ({ name, route, path: pathOf(route), status: await unfinishedRequest(server.url, route.method, pathOf(route)) })));
    for (const { name, route, path, status } of answers) {
      expect(status, name).to.equal(408);
      expectDocumented(route.method, path, status, `${name} too slow`);
    }
  });

  it('when the keyless paths get a URL over 16 KB or arrive too slowly, then those answers are listed for them too', async () => {
    for (const path of ['/', '/healthz', '/api/v1/openapi.json']) {
      const long = await request(server, 'GET', path + LONG_QUERY, { apiKey: null });
      expect(long.status, path).to.equal(431);
      expectDocumented('GET', path, long.status, 'a URL over 16 KB');
      expectDocumented('GET', path, await unfinishedRequest(server.url, 'GET', path), 'too slow');
    }
  });
});
