import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Koa from 'koa';
import { type AppState, edge, jsonBody, type Logger } from '@feedbackd/server/testing';
import { until } from '../helpers/until.js';

/**
 * A client that hangs up while its request waits in the middleware chain (a load balancer's
 * timeout, a load driver stopped mid-run): by the time the body parser runs, the request stream is
 * closed. That is the client's doing, so it is a 400 "cut short" in the request log, not an
 * unexpected error with a stack.
 */
describe('a client that hangs up before its body is read', () => {
  let server: Server;
  let port: number;
  const errors: string[] = [];
  const statuses: number[] = [];
  let waiting = 0;
  const logger: Logger = { debug: () => {}, info: () => {}, warn: (message) => errors.push(message), error: (message) => errors.push(message) };

  before(async () => {
    const app = new Koa<AppState>();
    app.silent = true;
    app
      .use(async (ctx, next) => {
        try {
          await next();
        } finally {
          statuses.push(ctx.status);
        }
      })
      .use(edge(logger))
      // Stands for a step before the body parser that is still running when the client goes away.
      .use(async (ctx, next) => {
        waiting += 1;
        if (!ctx.req.destroyed) await new Promise((resolve) => ctx.req.once('close', resolve));
        await next();
      })
      .use(jsonBody())
      .use((ctx) => {
        ctx.body = { ok: true };
      });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when the connection closes before the body parser runs, then the request ends as a 400 and nothing is logged as an error of the server or the database', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const body = '{"externalId":"u1"}';
    socket.write(`POST /api/v1/identify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    // Once the request waits in the chain, hang up without reading an answer.
    await until(() => waiting > 0, 10_000, 'the request to reach the step before the body parser');
    socket.destroy();
    await until(() => statuses.length > 0, 10_000, 'the request to be answered');
    expect(statuses).to.deep.equal([400]);
    expect(errors).to.deep.equal([]);
  });
});
