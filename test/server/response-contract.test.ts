import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { routes } from '@feedbackd/sdk/contract';
import { type AppState, edge, type IdempotentWrites, mount, silentLogger } from '@feedbackd/server/testing';

describe('replies checked against the contract (test mode)', () => {
  let server: Server;
  let url: string;
  before(async () => {
    const app = new Koa<AppState>();
    app.silent = true;
    const router = new Router<AppState>();
    // A GET never carries an Idempotency-Key that counts: no keyed write runs here.
    const idempotent: IdempotentWrites = { check: () => {}, run: () => Promise.reject(new Error('no keyed writes in this test')) };
    // Nor any statement: the handler below answers without one.
    const sql = { query: () => Promise.reject(new Error('no statements in this test')), ping: () => Promise.resolve(true), close: () => Promise.resolve() };
    // A handler with a bug: voteCount must be an integer.
    mount(router, routes.getVote, { sql, validateResponses: true, idempotent }, async () => ({ status: 200 as const, body: { voted: true, voteCount: 1.5 } }));
    app.use(edge(silentLogger)).use(router.routes());
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when a handler replies against its contract, then it is a 500 (the server bug), not a 400 blaming the client', async () => {
    const res = await fetch(`${url}/api/v1/feedback/00000000-0000-0000-0000-000000000000/vote`);
    expect(res.status).to.equal(500);
    expect(await res.json()).to.deep.equal({ error: 'Internal server error' });
  });
});
