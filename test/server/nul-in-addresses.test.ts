import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { ERROR_MESSAGES, routes, type RouteDefinition } from '@feedbackd/sdk/contract';
import { createApp, DEFAULT_PROJECT_SLUG } from '@feedbackd/server';
import { mountedRoutes, silentLogger, type MountedRoute } from '@feedbackd/server/testing';
import { backends } from '../helpers/backends.js';
import { request, withServer, type TestServer } from '../helpers/test-server.js';

/*
 * Issue 49: `%00` in a path parameter answered 500 on PostgreSQL, or 503 logged as "database
 * unreachable" on the embedded database (GET /api/v1/users/%00). PostgreSQL text cannot hold a
 * NUL, so a NUL in any path segment or query parameter is refused before a statement sees it: the
 * spec's 400 "Invalid input" on the API and the keyless paths, a 400 page on the board's, the
 * team's and the widget's pages. Every route the application mounts is walked (the contract's
 * table, and the pages' routers), with the NUL in each of its parameters and in its query.
 */

/** A NUL as a URL carries it, between two letters. */
const WITH_NUL = 'a%00b';

/** A value for each kind of path parameter that names nothing in particular, so that only the NUL is wrong. */
function sample(name: string): string {
  if (name === 'slug') return DEFAULT_PROJECT_SLUG;
  if (name === 'status') return 'planned';
  if (name === 'hash') return 'A'.repeat(22);
  if (name === 'rest') return 'x';
  if (name === 'externalId') return 'someone';
  return randomUUID();
}

/** The parameters of a path pattern: `:name` and the wildcard `{*name}`. */
const PARAMETER = /:(\w+)|\{\*(\w+)\}/g;
const parametersOf = (path: string) => [...path.matchAll(PARAMETER)].map((match) => match[1] ?? match[2]!);
const pathWith = (path: string, nulIn?: string) => path.replace(PARAMETER, (_, name?: string, rest?: string) => (name ?? rest) === nulIn ? WITH_NUL : sample(name ?? rest!));

/** The pages' areas answer HTML; every other route (the API, the keyless paths) the spec's JSON. */
const isPage = (path: string) => /^\/(b|w|team|assets)(\/|$)/.test(path);

/** The methods a route is called with: a wildcard route takes every method Node knows (ACL, MKCOL, ...), which add nothing here. */
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Each way a route is sent a NUL: in each path parameter, in a query value, in a query name. */
function nulAddresses(route: MountedRoute): { what: string; path: string; field: string | undefined }[] {
  return [
    ...parametersOf(route.path).map((name) => ({ what: `:${name}`, path: pathWith(route.path, name), field: name })),
    { what: 'a query value', path: `${pathWith(route.path)}?q=${WITH_NUL}`, field: 'q' },
    { what: 'a query name', path: `${pathWith(route.path)}?${WITH_NUL}=1`, field: 'ab' },
  ];
}

for (const backend of backends()) {
  describe(`A NUL in a path or query parameter is a 400 on every route (issue 49, %00 answered 500 or 503) (${backend.name})`, () => {
    const server = withServer(backend);
    let secretKey: string;
    let mounted: MountedRoute[];

    before(async () => {
      secretKey = await server.newKey(undefined, 'secret');
      // The routes as the application mounts them: an app of its own, listed, never listening.
      const app = createApp({ sql: server.server.sql, orm: server.server.orm, voterSecret: randomBytes(32), logger: silentLogger, rateLimit: 'off' });
      mounted = mountedRoutes(app).filter((route) => METHODS.has(route.method));
    });

    /** The server still answers, and wrote no unexpected error nor a database outage. */
    async function stillWell(target: TestServer): Promise<void> {
      const list = await request(target, 'GET', '/api/v1/feedback');
      expect(list.status).to.equal(200);
      expect(target.logs.filter((line) => /unexpected error|database unreachable/.test(line))).to.deep.equal([]);
    }

    it('when the routes are listed, then every route of the contract is mounted, and so are the pages of each area', () => {
      const names = new Set(mounted.map((route) => `${route.method} ${route.path}`));
      for (const [name, route] of Object.entries(routes) as [string, RouteDefinition][]) {
        expect(names.has(`${route.method} ${route.path}`), `${name}: ${route.method} ${route.path} is mounted`).to.equal(true);
      }
      expect([...names]).to.include.members(['GET /b/:slug/items/:id', 'GET /b/:slug/logo/:hash', 'POST /team/items/:id/status', 'GET /w/:slug', 'GET /healthz']);
    });

    it("when an end user's paths are asked with %00 for the externalId (the finding), then it is a 400 Invalid input naming externalId, not a 500 or a 503", async () => {
      for (const [method, path] of [['DELETE', '/api/v1/users/%00'], ['GET', '/api/v1/users/%00/export'], ['DELETE', `/api/v1/users/${WITH_NUL}`]] as const) {
        const res = await request(server, method, path, { apiKey: secretKey });
        expect(res.status, path).to.equal(400);
        expect(res.body, path).to.deep.equal({ error: ERROR_MESSAGES.invalidInput, details: { formErrors: [], fieldErrors: { externalId: ['externalId must not contain NUL characters'] } } });
      }
      await stillWell(server);
    });

    it('when every route of the API and the keyless paths gets a NUL in each path parameter and in its query, then each answers the spec\'s 400 and the database is never asked', async () => {
      const api = mounted.filter((route) => !isPage(route.path));
      expect(api.length).to.be.above(Object.keys(routes).length);
      for (const route of api) {
        for (const { what, path, field } of nulAddresses(route)) {
          const body = route.method === 'POST' || route.method === 'PATCH' ? {} : undefined;
          const res = await request(server, route.method, path, { apiKey: secretKey, body });
          const where = `${route.method} ${route.path} with a NUL in ${what}`;
          expect(res.status, where).to.equal(400);
          expect(res.body.error, where).to.equal(ERROR_MESSAGES.invalidInput);
          const messages = [...res.body.details.formErrors, ...Object.values(res.body.details.fieldErrors as Record<string, string[]>).flat()];
          expect(messages.join(' '), where).to.match(/must not contain NUL characters/);
          if (route.path.startsWith('/api/v1/') && what.startsWith(':')) expect(res.body.details.fieldErrors, where).to.have.property(field!);
        }
      }
      await stillWell(server);
    });

    it('when every page of the board, the team and the widget gets a NUL in each path parameter and in its query, then each answers a 400 page', async () => {
      const pages = mounted.filter((route) => isPage(route.path));
      expect(pages.map((route) => route.path)).to.include.members(['/b/:slug', '/team/items/:id', '/w/:slug/new', '/assets/{*rest}']);
      for (const route of pages) {
        for (const { what, path } of nulAddresses(route)) {
          const response = await fetch(server.url + path, { method: route.method, redirect: 'manual', headers: { accept: 'text/html' } });
          const text = await response.text();
          const where = `${route.method} ${route.path} with a NUL in ${what}`;
          expect(response.status, where).to.equal(400);
          expect(response.headers.get('content-type'), where).to.equal('text/html; charset=utf-8');
          expect(text, where).to.include('must not contain NUL characters');
        }
      }
      await stillWell(server);
    });
  });
}
