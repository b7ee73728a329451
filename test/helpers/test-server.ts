import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApiKey, startServer, type RunningServer, type ServeOptions } from '@feedbackd/server';
import { BOARD_PROJECT_CACHE_TTL_MS, KEY_CACHE_TTL_MS } from '@feedbackd/server/testing';
import type { Backend, FreshDatabase } from './backends.js';

/** A server on port 0 over a fresh, migrated database (Backend.createMigrated), with one API key of the default project. */
export interface TestServer {
  url: string;
  apiKey: string;
  server: RunningServer;
  database: FreshDatabase;
  /** Log lines the server wrote. */
  logs: string[];
  /**
   * Mints another key (of the default project, or of another project by slug, created when
   * missing): a public key, or a secret one with `kind: 'secret'`.
   */
  newKey(projectSlug?: string, kind?: 'public' | 'secret'): Promise<string>;
  /** Runs a statement on the server's database, outside any request: for what a test must see or set in the rows themselves. */
  sql<T>(query: string, params?: unknown[]): Promise<T[]>;
  /**
   * Waits out the board's project cache (its time to live: BOARD_PROJECT_CACHE_TTL_MS, or the
   * suite's boardProjectCacheTtlMs), so that a change of a board's settings made outside the
   * server (`feedback board`, a service on the test's ORM) is what its next page shows.
   */
  boardSettingsSeen(): Promise<void>;
  /** Waits out the API's key cache (KEY_CACHE_TTL_MS, or the suite's keyCacheTtlMs), so that a key revoked outside the server is refused. */
  keyChangesSeen(): Promise<void>;
  close(): Promise<void>;
}

/** Server options a suite may set. The rate limit is off (very high) unless a suite asks for one. */
export interface TestServerOptions {
  rateLimit?: number;
  trustProxy?: number;
  /** Unknown keys per address per minute before it is refused (the server's default, 30, when absent), or 'off'. */
  failedAuthLimit?: number | 'off';
  /** Count the rate limit in this Redis. */
  redisUrl?: string;
  /** Request timeouts and the cap on connections per address (the server's defaults when absent). */
  connectionLimits?: ServeOptions['connectionLimits'];
  /** The database is not fresh (a restart on the same data): use this key instead of a first one. */
  existingKey?: string;
  /** Webhook endpoints may be on loopback (the tests' receivers). */
  webhooksAllowPrivate?: boolean;
  /** The webhook sender's pace (the server's default when absent). */
  webhooksPerSecond?: number;
  /** The server's public origin (`serve --public-url`): its pages answer only for that host. */
  publicUrl?: string;
  /** The voter secret (FEEDBACK_VOTER_SECRET); absent, the server makes its own, as on a first start. */
  voterSecret?: string;
  /** The board forms' shortest fill time in ms (the server's default is 3,000); 0 unless a suite asks, so a test's form posts at once. */
  boardMinFillMs?: number;
  /** Serve the metrics on a port of their own (0: any free one; server.metricsUrl). */
  metricsPort?: number;
  /** The notifications' mail server, sender and window (`serve --smtp-url --mail-from --notify-window`). */
  smtpUrl?: string;
  mailFrom?: string;
  notifyWindowSeconds?: number;
  /**
   * How long the board trusts a project's settings, in ms (the server's 1 s when absent): a suite
   * that changes them between pages sets SHORT_BOARD_PROJECT_CACHE_TTL_MS, so each change is seen
   * after that instead of after a second. The suite that tests the bound itself keeps the default.
   */
  boardProjectCacheTtlMs?: number;
  /** How long the API trusts a key it has looked up, in ms (the server's 1 s when absent): SHORT_KEY_CACHE_TTL_MS for a suite that revokes keys; keys.test.ts keeps the bound it tests. */
  keyCacheTtlMs?: number;
}

/** The board's project cache of a suite that changes board settings between pages (boardProjectCacheTtlMs). */
export const SHORT_BOARD_PROJECT_CACHE_TTL_MS = 50;
/** The key cache of a suite that revokes keys and then uses them (keyCacheTtlMs). */
export const SHORT_KEY_CACHE_TTL_MS = 50;

export async function startTestServer(backend: Backend, options: TestServerOptions = {}): Promise<TestServer> {
  const database = await backend.createMigrated();
  const logs: string[] = [];
  let firstKey: string | undefined;
  const server = await startServer({
    ...database.location,
    port: 0,
    host: '127.0.0.1',
    validateResponses: true,
    rateLimit: options.rateLimit ?? 1_000_000,
    trustProxy: options.trustProxy ?? 0,
    failedAuthLimit: options.failedAuthLimit,
    redisUrl: options.redisUrl,
    connectionLimits: options.connectionLimits,
    webhooksAllowPrivate: options.webhooksAllowPrivate,
    webhooksPerSecond: options.webhooksPerSecond,
    publicUrl: options.publicUrl,
    voterSecret: options.voterSecret,
    boardMinFillMs: options.boardMinFillMs ?? 0,
    metricsPort: options.metricsPort,
    smtpUrl: options.smtpUrl,
    mailFrom: options.mailFrom,
    notifyWindowSeconds: options.notifyWindowSeconds,
    boardProjectCacheTtlMs: options.boardProjectCacheTtlMs,
    keyCacheTtlMs: options.keyCacheTtlMs,
    logger: {
      debug: () => {},
      info: (message, fields) => logs.push(`INFO ${message} ${JSON.stringify(fields ?? {})}`),
      warn: (message, fields) => logs.push(`WARN ${message} ${JSON.stringify(fields ?? {})}`),
      error: (message, fields) => logs.push(`ERROR ${message} ${JSON.stringify(fields ?? {})}`),
    },
    onFirstKey: (key) => {
      firstKey = key;
    },
  });
  const apiKey = firstKey ?? options.existingKey;
  if (!apiKey) throw new Error('a fresh database should have produced a first key');
  return {
    url: server.url,
    apiKey,
    server,
    database,
    logs,
    newKey: async (projectSlug, kind) => {
      const em = server.orm.em.fork();
      // Projects other than the default one have no command yet: the test makes the row itself.
      if (projectSlug !== undefined) {
        await em
          .getConnection()
          .execute('insert into projects (slug, name, voter_salt) values (?, ?, ?) on conflict (slug) do nothing', [projectSlug, projectSlug, randomBytes(32).toString('base64url')]);
      }
      return (await createApiKey(em, { projectSlug, kind })).key;
    },
    sql: <T>(query: string, params: unknown[] = []) => server.orm.em.fork().execute<T[]>(query, params),
    boardSettingsSeen: () => pastCacheBound(options.boardProjectCacheTtlMs ?? BOARD_PROJECT_CACHE_TTL_MS),
    keyChangesSeen: () => pastCacheBound(options.keyCacheTtlMs ?? KEY_CACHE_TTL_MS),
    close: async () => {
      await server.close();
      await database.drop();
    },
  };
}

/**
 * Resolves once `ttlMs` has passed on the clock the server's caches read (Date.now): a timer alone
 * may fire a few ms early on that clock (libuv counts from the loop's cached time).
 */
async function pastCacheBound(ttlMs: number): Promise<void> {
  const end = Date.now() + ttlMs + 1;
  while (Date.now() < end) await sleep(end - Date.now());
}

/**
 * The test server of a suite: started in a `before` hook (registered now, so it runs before the
 * hooks the suite registers after this call) and closed in an `after` hook. The returned object
 * stands for the server once started: use it in hooks and tests, not at the suite's top level.
 */
export function withServer(backend: Backend, options: TestServerOptions = {}): TestServer {
  let started: TestServer | undefined;
  before(async () => {
    started = await startTestServer(backend, options);
  });
  after(async () => {
    await started?.close();
    started = undefined;
  });
  const current = (): TestServer => {
    if (!started) throw new Error('the suite\'s test server is not running: withServer starts it in a before hook, so use it in hooks and tests');
    return started;
  };
  return {
    get url() {
      return current().url;
    },
    get apiKey() {
      return current().apiKey;
    },
    get server() {
      return current().server;
    },
    get database() {
      return current().database;
    },
    get logs() {
      return current().logs;
    },
    newKey: (projectSlug, kind) => current().newKey(projectSlug, kind),
    sql: <T>(query: string, params?: unknown[]) => current().sql<T>(query, params),
    boardSettingsSeen: () => current().boardSettingsSeen(),
    keyChangesSeen: () => current().keyChangesSeen(),
    close: async () => {
      const running = current();
      started = undefined;
      await running.close();
    },
  };
}

/** A JSON request to the test server; returns status, headers and the parsed body. */
export async function request(
  server: { url: string; apiKey: string },
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; apiKey?: string | null } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.apiKey === undefined ? server.apiKey : options.apiKey;
  if (key !== null) headers['x-api-key'] = key;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(server.url + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the tests that care assert on it.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** The CLI's flags that name a test server's database: `--database-url URL` or `--data-dir DIR`. */
export function locationOf(server: TestServer): string[] {
  const { databaseUrl, dataDir } = server.database.location;
  return databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dataDir];
}
