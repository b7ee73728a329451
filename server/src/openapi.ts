import { z } from 'zod';
import * as contract from '@feedbackd/sdk/contract';
import { ERROR_MESSAGES, ErrorBodySchema, routes, type RouteDefinition } from '@feedbackd/sdk/contract';
import { readsBody } from './http/body.js';
import { HEALTH_PATH, INDEX_PATH, OPENAPI_PATH } from './http/keyless-routes.js';
import { SERVER_VERSION } from './version.js';

/**
 * The OpenAPI 3.1 document of the API, generated from the contract's route table and zod schemas:
 * there is no second, hand-written description to drift from the code. It lives in the server
 * package because it describes what this server answers (its version, its error statuses, its
 * key check); it reads only the contract, so a script can build it without a database.
 *
 * The output is deterministic: paths, methods and components are emitted in a fixed order, so
 * the committed docs/openapi.json changes only when the contract does (`npm run openapi`).
 */

type Json = Record<string, unknown>;

const METHOD_ORDER = ['GET', 'POST', 'PATCH', 'DELETE'] as const;
const COMPONENT_REF = '#/components/schemas/';

/** The schemas the contract exports (`XxxSchema`) become components named `Xxx`, wherever a route reaches them. */
function contractRegistry(): z.core.$ZodRegistry<{ id: string }> {
  const registry = z.registry<{ id: string }>();
  const named = Object.entries(contract)
    .filter(([name, value]) => name.endsWith('Schema') && typeof value === 'object' && value !== null && '_zod' in value)
    .sort(([a], [b]) => a.localeCompare(b));
  const seen = new Set<unknown>();
  for (const [name, schema] of named) {
    if (seen.has(schema)) continue; // an alias: the first name (alphabetically) wins
    seen.add(schema);
    registry.add(schema as z.ZodType, { id: name.slice(0, -'Schema'.length) });
  }
  return registry;
}

/** JSON Schema of every zod schema used, with named parts collected as components. */
class SchemaCollector {
  readonly components: Record<string, Json> = {};
  private readonly registry = contractRegistry();

  /** The JSON Schema of `schema` as received (`input`) or as sent (`output`), with $refs to components. */
  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const converted = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      metadata: this.registry,
      unrepresentable: 'any',
      override: ({ jsonSchema }) => {
        // z.number().int() says "a safe integer"; these bounds tell a reader nothing.
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      },
    }) as Json;
    const { $schema: _dialect, $defs, ...root } = converted;
    const defs = ($defs ?? {}) as Record<string, Json>;
    // A part that reads differently as input than as output (a default, a transform) gets its own
    // name, `XxxInput`; so does every part that refers to it.
    const renamed: Record<string, string> = {};
    for (let changed = true; changed; ) {
      changed = false;
      for (const [name, def] of Object.entries(defs)) {
        const existing = this.components[name];
        if (renamed[name] || !existing || same(existing, rewriteRefs(def, renamed))) continue;
        renamed[name] = `${name}Input`;
        changed = true;
      }
    }
    for (const [name, def] of Object.entries(defs)) {
      const finalName = renamed[name] ?? name;
      const json = rewriteRefs(def, renamed);
      const existing = this.components[finalName];
      if (existing && !same(existing, json)) throw new Error(`two different schemas are both named ${finalName} in the contract`);
      this.components[finalName] = json;
    }
    return rewriteRefs(root, renamed);
  }
}

/** Replaces zod's local `#/$defs/X` references with the document's components (renamed as asked). */
function rewriteRefs(value: Json, renamed: Record<string, string>): Json {
  return JSON.parse(
    JSON.stringify(value, (key, inner: unknown) =>
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? COMPONENT_REF + (renamed[inner.slice('#/$defs/'.length)] ?? inner.slice('#/$defs/'.length))
        : inner,
    ),
  ) as Json;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A route's params or query schema must be an object: each property is one parameter. */
function parameters(collector: SchemaCollector, schema: z.ZodType | undefined, location: 'path' | 'query'): Json[] {
  if (!schema) return [];
  if (!(schema instanceof z.ZodObject)) throw new Error(`a route's ${location} schema must be a z.object`);
  // Required or not is a matter of what may be sent; the schema is that of the value the server
  // reads (type, limits, default), which is what a caller needs to know.
  const required = new Set((z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }).required as string[] | undefined) ?? []);
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, property]) => {
    const parameter: Json = { name, in: location, required: location === 'path' || required.has(name), schema: collector.convert(property, 'output') };
    // A list is sent as one value separated by commas: ?status=new,planned.
    if ((parameter.schema as Json).type === 'array') Object.assign(parameter, { style: 'form', explode: false });
    return parameter;
  });
}

/**
 * The error responses, shared by every operation that can meet them. An operation lists every
 * status the server can answer it with (`errorsOf`), those Node's HTTP server answers before the
 * app sees the request included (serve/http-server.ts: 400, 408, 431, and 503 over the
 * connection cap), so a client generated from the document knows each answer it can get.
 */
const ERROR_RESPONSES: Record<string, { status: number; description: string; retryAfter?: boolean; example?: string }> = {
  BadRequest: {
    status: 400,
    description: 'Invalid input: `details.fieldErrors` has the messages per field, `details.formErrors` those about the request as a whole. Also a request that is not valid HTTP, or an HTTP/1.1 request without a Host header (then the connection is closed).',
    example: ERROR_MESSAGES.invalidInput,
  },
  Unauthorized: { status: 401, description: 'The x-api-key header is missing, or the key is unknown or revoked.', example: ERROR_MESSAGES.invalidApiKey },
  Forbidden: { status: 403, description: 'The operation needs a secret key; a public key was sent.' },
  Refused: {
    status: 403,
    description:
      "Refused for this caller (docs/api.md, Comments): a public key asked for the team's part (a team comment, an internal note, a pin, or a change without endUserId), an anonymous comment where the project does not allow them, or an edit or delete by someone other than the comment's author, or after the team has replied to it.",
  },
  NotFound: { status: 404, description: "The resource does not exist in the key's project (or its id is malformed).", example: ERROR_MESSAGES.feedbackNotFound },
  RequestTimeout: { status: 408, description: 'The request did not arrive in time (its headers within 10 s, all of it within 30 s, by default); it was not handled, and the connection is closed.' },
  PayloadTooLarge: { status: 413, description: 'The body is larger than 1 MB (a body is read on every POST and PATCH, even where the operation takes none).' },
  UnsupportedMediaType: {
    status: 415,
    description: 'The body is not JSON (its Content-Type is neither application/json nor a +json type), its charset is not UTF-8, or its Content-Encoding is not supported. Checked on every POST and PATCH that sends a body, even where the operation takes none.',
  },
  TooManyRequests: {
    status: 429,
    description: `The key has used its budget for this window (with the rate-limit headers), or the caller's address sent too many unknown or revoked keys ("${ERROR_MESSAGES.failedAuthLimited}", with Retry-After only).`,
    retryAfter: true,
    example: ERROR_MESSAGES.rateLimited,
  },
  RequestHeaderFieldsTooLarge: { status: 431, description: 'The request line and headers together (the URL and its query string included) are over 16 KB; the connection is closed.' },
  InternalServerError: { status: 500, description: 'An unexpected error; the details are in the server log, under the request id.', example: ERROR_MESSAGES.internal },
  ServiceUnavailable: {
    status: 503,
    description:
      'The database cannot be reached, or was lost during the request; or the caller\'s address already holds the most open connections allowed (256 by default), and nothing sent on this one was handled. A read may be retried. A write sent with an Idempotency-Key may be retried with the same key: if it did commit, the retry gets its answer, otherwise it runs; it never takes effect twice. A write without a key may have taken effect (the connection can be lost during its commit): retrying it can apply it twice.',
    retryAfter: true,
    example: ERROR_MESSAGES.serviceUnavailable,
  },
};

/** The error responses of a route of the table, in status order: every one the server can answer it with. */
function errorsOf(route: RouteDefinition): string[] {
  const errors = ['BadRequest', 'Unauthorized'];
  if (route.auth === 'secret') errors.push('Forbidden');
  else if (route.refuses) errors.push('Refused');
  if (route.params || route.notFound) errors.push('NotFound');
  errors.push('RequestTimeout');
  // By the method, not by whether the contract has a body: body.ts reads (and refuses) one on every POST and PATCH.
  if (readsBody(route.method)) errors.push('PayloadTooLarge', 'UnsupportedMediaType');
  errors.push('TooManyRequests', 'RequestHeaderFieldsTooLarge', 'InternalServerError', 'ServiceUnavailable');
  return errors;
}

/** What every keyless path can also answer: what Node's HTTP server answers before the app, and a bug. */
const KEYLESS_ERRORS = ['BadRequest', 'RequestTimeout', 'RequestHeaderFieldsTooLarge', 'InternalServerError', 'ServiceUnavailable'];

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

function operation(collector: SchemaCollector, usedErrors: Set<string>, operationId: string, route: RouteDefinition): Json {
  const op: Json = {
    operationId,
    summary: route.summary,
    tags: [route.auth === 'secret' ? 'operator' : 'public'],
    security: route.auth === 'secret' ? [{ secretKey: [] }] : [{ publicKey: [] }, { secretKey: [] }],
  };
  const params = [...parameters(collector, route.params, 'path'), ...parameters(collector, route.query, 'query')];
  if (route.method !== 'GET' && route.idempotencyKey !== false) {
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'The write takes effect at most once per key and project (24 hours): the key is recorded in the transaction of the write, with its answer, and a retry with it gets that answer (the same bytes, with Idempotent-Replayed: true) instead of running again. The same key with another request is a 400.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  if (route.endUserToken) {
    params.push({
      name: 'X-Feedback-User-Token',
      in: 'header',
      required: false,
      description:
        "With a public key, the proof of the end user who changes their own comment (an externalId is published with every comment, so it proves nothing): an HS256 token signed with the project's identity secret, `sub` the end user's externalId, `aud` the project's slug, `exp` at most 10 minutes ahead, spent once (docs/api.md, \"Comments\"). Not needed with a secret key.",
      schema: { type: 'string', minLength: 1 },
    });
  }
  if (params.length > 0) op.parameters = params;
  if (route.body) {
    // The server reads a missing body as {}: the body is optional when {} is valid.
    op.requestBody = { required: !route.body.safeParse({}).success, content: { 'application/json': { schema: collector.convert(route.body, 'input') } } };
  }
  const responses: Json = {};
  for (const [status, schema] of Object.entries(route.responses).sort(([a], [b]) => Number(a) - Number(b))) {
    const content = status === '204' ? {} : { content: { 'application/json': { schema: collector.convert(schema, 'output') } } };
    responses[status] = { description: SUCCESS_DESCRIPTIONS[Number(status)] ?? 'Success', ...content };
  }
  addErrors(responses, errorsOf(route), usedErrors);
  op.responses = responses;
  return op;
}

/** References to the named error responses, each under its status unless the operation has its own answer there. */
function addErrors(responses: Json, names: string[], usedErrors: Set<string>): void {
  for (const name of names) {
    const status = String(ERROR_RESPONSES[name]!.status);
    if (responses[status]) continue;
    responses[status] = { $ref: `#/components/responses/${name}` };
    usedErrors.add(name);
  }
}

/** `GET /`: what the server is and where to go next (keyless.ts builds it). */
const ServiceIndexSchema = z.object({
  name: z.literal('feedback'),
  version: z.string(),
  links: z.object({ health: z.literal(HEALTH_PATH), api: z.string(), openapi: z.literal(OPENAPI_PATH) }),
  authentication: z.string(),
});

/**
 * The paths answered without a key (http/keyless-routes.ts), which are not in the contract's
 * route table: they are this server's, not the API's. Each is also answered to HEAD.
 */
function keylessOperations(collector: SchemaCollector, usedErrors: Set<string>): Record<string, Json> {
  const json = (schema: Json) => ({ content: { 'application/json': { schema } } });
  const get = (operationId: string, summary: string, responses: Json): Json => {
    addErrors(responses, KEYLESS_ERRORS, usedErrors);
    return { get: { operationId, summary, tags: ['service'], security: [], responses } };
  };
  return {
    [INDEX_PATH]: get('serviceIndex', 'Name, version and links of this server', { 200: { description: 'OK', ...json(collector.convert(ServiceIndexSchema, 'output')) } }),
    [HEALTH_PATH]: get('healthCheck', 'Whether this server and its database answer (within 2 s)', {
      200: { description: 'The server is up and its database answers.', ...json(collector.convert(z.object({ status: z.literal('ok') }), 'output')) },
      503: {
        description: "The database does not answer: `{\"error\":\"Database unavailable\"}`; or the caller's address holds the most open connections allowed.",
        ...json(collector.convert(ErrorBodySchema, 'output')),
      },
    }),
    [OPENAPI_PATH]: get('openApiDocument', 'This document', { 200: { description: 'The OpenAPI document, as in docs/openapi.json.', ...json({ type: 'object' }) } }),
  };
}

/** The document for a route table (the API's own by default) and a version. */
export function buildOpenApiDocument(table: Readonly<Record<string, RouteDefinition>> = routes, version: string = SERVER_VERSION): Json {
  const collector = new SchemaCollector();
  const usedErrors = new Set<string>();
  const errorSchema = collector.convert(ErrorBodySchema, 'output');
  const paths: Record<string, Json> = {};
  const entries = Object.entries(table).sort(([, a], [, b]) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
  for (const [operationId, route] of entries) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    paths[path] ??= {};
    if (paths[path]![route.method.toLowerCase()]) throw new Error(`two operations are ${route.method} ${route.path}`);
    paths[path]![route.method.toLowerCase()] = operation(collector, usedErrors, operationId, route);
  }
  for (const [path, item] of Object.entries(keylessOperations(collector, usedErrors))) {
    if (paths[path]) throw new Error(`the route table also has ${path}, which is answered without a key`);
    paths[path] = item;
  }
  const responses: Json = {};
  for (const [name, error] of Object.entries(ERROR_RESPONSES)) {
    if (!usedErrors.has(name)) continue;
    responses[name] = {
      description: error.description,
      ...(error.retryAfter ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } } } : {}),
      content: { 'application/json': { schema: errorSchema, ...(error.example ? { example: { error: error.example } } : {}) } },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Feedback API',
      version,
      description: 'Collect end-user feedback (bugs, ideas, questions), list and search it, read it with its comments, and vote on it. Generated from the contract of @feedbackd/sdk.',
      // The project's LICENSE file.
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:3000', description: 'The default address of `feedback serve` (--host 127.0.0.1, --port 3000); use the address your server is reached at.' }],
    tags: [
      { name: 'public', description: 'The endpoints of the spec: a public (pk_) or a secret (sk_) key.' },
      { name: 'operator', description: 'Operator extensions: a secret (sk_) key only.' },
      { name: 'service', description: 'Answered without a key: the server itself, its health check and this document.' },
    ].filter((tag) => tag.name === 'service' || Object.values(table).some((route) => (route.auth === 'secret' ? 'operator' : 'public') === tag.name)),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(Object.entries(collector.components).sort(([a], [b]) => a.localeCompare(b))),
      responses,
      securitySchemes: {
        publicKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A public key (pk_…), allowed by every operation of the spec.' },
        secretKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A secret key (sk_…): allowed wherever a public key is, and needed by the operator operations.' },
      },
    },
  };
}

let cached: string | undefined;

/** The document as committed in docs/openapi.json: two-space indentation and a final newline. */
export function openApiFileText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

/** The API's document as JSON text, built once (what GET /api/v1/openapi.json sends). */
export function openApiJson(): string {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return cached;
}
