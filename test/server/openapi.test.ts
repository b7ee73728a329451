import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validate } from '@readme/openapi-parser';
import { expect } from 'chai';
import { z } from 'zod';
import { routes, type RouteDefinition } from '@feedbackd/sdk/contract';
import { createApp, openApiFileText, type SqlPool } from '@feedbackd/server';
import { buildOpenApiDocument, OPENAPI_PATH, silentLogger } from '@feedbackd/server/testing';

const COMMITTED = new URL('../../docs/openapi.json', import.meta.url);
const committedText = () => readFileSync(COMMITTED, 'utf8');

/** The third-party validator's verdict, with its messages when it refuses. */
async function validated(document: unknown): Promise<{ valid: boolean; messages: string[] }> {
  // The parser resolves references in place: give it a copy.
  const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
  return { valid: result.valid, messages: result.valid ? [] : result.errors.map((error) => error.message) };
}

/** A pool that must not be used: the document is served without the database. */
const noDatabase: SqlPool = {
  query: () => Promise.reject(new Error('the OpenAPI document must not touch the database')),
  ping: async () => false,
  close: async () => {},
};

describe('the OpenAPI document', () => {
  it('when it is generated from the contract, then it equals the committed docs/openapi.json', () => {
    expect(openApiFileText() === committedText(), 'docs/openapi.json is stale: run `npm run openapi` and commit the file').to.equal(true);
  });

  it('when the committed document is checked by @readme/openapi-parser, then it is valid OpenAPI 3.1', async () => {
    const document = JSON.parse(committedText()) as { openapi: string };
    expect(document.openapi).to.equal('3.1.0');
    const verdict = await validated(document);
    expect(verdict.messages).to.deep.equal([]);
    expect(verdict.valid).to.equal(true);
  });

  it('when the document is generated, then every route of the table is an operation named after its key, with its summary and the error responses that apply', () => {
    const document = buildOpenApiDocument() as { paths: Record<string, Record<string, { operationId: string; summary: string; responses: Record<string, unknown> }>> };
    for (const [name, route] of Object.entries(routes) as [string, RouteDefinition][]) {
      const op = document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).to.not.equal(undefined);
      expect(op!.operationId).to.equal(name);
      expect(op!.summary).to.equal(route.summary);
      const statuses = Object.keys(op!.responses);
      // Issue 37: what Node's HTTP server answers before the app (408, 431) is listed for every operation too.
      expect(statuses).to.include.members(['400', '401', '408', '429', '431', '500', '503', ...Object.keys(route.responses)]);
      // A body is read (and so refused with 413 or 415) on every POST and PATCH, whether or not the contract has one.
      const readsBody = route.method === 'POST' || route.method === 'PATCH';
      expect(statuses.includes('413') && statuses.includes('415'), `413 and 415 on every POST and PATCH, bodyless ones included: ${name}`).to.equal(readsBody);
      // A route whose body names a resource that may be unknown says so (`notFound`: subscriptions' unsubscribeAll).
      expect(statuses.includes('404'), `404 where the path or the body names a resource: ${name}`).to.equal(route.params !== undefined || ('notFound' in route && route.notFound === true));
      // A secret route refuses public keys; a public route that refuses some callers says so (`refuses`: the conversation's).
      expect(statuses.includes('403'), `403 only for secret routes and those that refuse some callers: ${name}`).to.equal(route.auth === 'secret' || ('refuses' in route && route.refuses === true));
    }
  });

  it('when a route table has secret PATCH and DELETE routes, then they need the secret key, answer 403 and the document stays valid', async () => {
    const Params = z.object({ id: z.string() });
    const table: Record<string, RouteDefinition> = {
      ...routes,
      changeStatus: {
        method: 'PATCH',
        path: '/api/v1/feedback/:id/status',
        auth: 'secret',
        summary: 'Change the status of an item',
        params: Params,
        body: z.object({ status: z.enum(['new', 'closed']) }),
        responses: { 200: z.object({ ok: z.boolean() }) },
      },
      deleteComment: {
        method: 'DELETE',
        path: '/api/v1/comments/:id',
        auth: 'secret',
        summary: 'Delete a comment',
        params: Params,
        responses: { 204: z.undefined() },
      },
    };
    const document = buildOpenApiDocument(table, '9.9.9') as any;
    const patch = document.paths['/api/v1/feedback/{id}/status'].patch;
    expect(patch.security).to.deep.equal([{ secretKey: [] }]);
    expect(patch.responses['403']).to.deep.equal({ $ref: '#/components/responses/Forbidden' });
    expect(patch.requestBody.required).to.equal(true);
    const remove = document.paths['/api/v1/comments/{id}'].delete;
    expect(remove.responses['204']).to.deep.equal({ description: 'No content' });
    expect(document.paths['/api/v1/feedback'].get.security).to.deep.equal([{ publicKey: [] }, { secretKey: [] }]);
    expect(document.info.version).to.equal('9.9.9');
    expect((await validated(document)).messages).to.deep.equal([]);
  });

  it('when the document is generated, then it names its license (MIT, as the LICENSE file) and the default server address', () => {
    const document = buildOpenApiDocument() as any;
    expect(readFileSync(new URL('../../LICENSE', import.meta.url), 'utf8')).to.match(/^MIT License/);
    expect(document.info.license).to.deep.equal({ name: 'MIT', identifier: 'MIT' });
    expect(document.servers).to.have.length(1);
    expect(document.servers[0].url).to.equal('http://127.0.0.1:3000');
    expect(document.servers[0].description).to.match(/default/);
  });

  it('when the keyless paths are looked up, then /, /healthz and the document itself are GET operations without security, and the live answers have the documented fields', async () => {
    const document = buildOpenApiDocument() as any;
    for (const path of ['/', '/healthz', OPENAPI_PATH]) {
      expect(Object.keys(document.paths[path] ?? {}), path).to.deep.equal(['get']);
      expect(document.paths[path].get.security, path).to.deep.equal([]);
      expect(document.paths[path].get.tags, path).to.deep.equal(['service']);
    }
    const app = createApp({ sql: noDatabase, voterSecret: randomBytes(32), logger: silentLogger, rateLimit: { points: 1 } });
    const http = createServer(app.callback());
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const index = await fetch(`${url}/`);
      const indexSchema = document.paths['/'].get.responses['200'].content['application/json'].schema;
      const body = (await index.json()) as Record<string, any>;
      expect(Object.keys(body).sort()).to.deep.equal([...indexSchema.required].sort());
      expect(Object.keys(body.links).sort()).to.deep.equal([...indexSchema.properties.links.required].sort());
      expect(body.links.health).to.equal(indexSchema.properties.links.properties.health.const);
      // No database here: the health check answers its documented 503.
      const health = await fetch(`${url}/healthz`);
      expect(health.status).to.equal(503);
      expect(Object.keys(document.paths['/healthz'].get.responses)).to.deep.equal(['200', '400', '408', '431', '500', '503']);
      expect(await health.json()).to.deep.equal({ error: 'Database unavailable' });
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });

  it('when GET /api/v1/openapi.json is asked without a key, then it answers 200 JSON equal to the committed document, before authentication', async () => {
    const app = createApp({ sql: noDatabase, voterSecret: randomBytes(32), logger: silentLogger, rateLimit: { points: 1 } });
    const http = createServer(app.callback());
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(url + OPENAPI_PATH);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
        expect(response.headers.get('ratelimit-policy'), 'not rate limited').to.equal(null);
        expect(await response.json()).to.deep.equal(JSON.parse(committedText()));
      }
      const head = await fetch(url + OPENAPI_PATH, { method: 'HEAD' });
      expect(head.status).to.equal(200);
      const post = await fetch(url + OPENAPI_PATH, { method: 'POST' });
      expect(post.status).to.equal(405);
      expect(post.headers.get('allow')).to.equal('GET, HEAD');
      const other = await fetch(`${url}/api/v1/feedback`);
      expect(other.status, 'the rest of the API still needs a key').to.equal(401);
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
