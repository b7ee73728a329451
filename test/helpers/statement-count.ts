import { createRequire } from 'node:module';

type Query = (...args: unknown[]) => unknown;

/**
 * Every copy of node-postgres the server sends statements through: its own (the hot side) and
 * MikroORM's, which pins a version of its own (the operator side).
 */
function clientPrototypes(): { query: Query }[] {
  const fromServer = createRequire(createRequire(import.meta.url).resolve('@feedbackd/server'));
  const fromOrm = createRequire(fromServer.resolve('@mikro-orm/postgresql/package.json'));
  const copies = new Set([fromServer('pg'), fromOrm('pg')] as { Client: { prototype: { query: Query } } }[]);
  return [...copies].map((pg) => pg.Client.prototype);
}

/**
 * The statements this process sends to the database while `work` runs, each a round trip (the
 * server under test runs in the test's process and reaches both databases through node-postgres;
 * its background jobs run in a thread of their own and are not counted). Only for a test that
 * runs nothing else meanwhile. `work` gets the list as it grows, to wait on it.
 */
export async function statementsDuring<T>(work: (statements: readonly string[]) => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const patched = clientPrototypes().map((prototype) => {
    const original = prototype.query;
    prototype.query = function (this: unknown, ...args: unknown[]) {
      const [first] = args;
      statements.push(typeof first === 'string' ? first : String((first as { text?: unknown } | undefined)?.text ?? first));
      return original.apply(this, args);
    };
    return () => {
      prototype.query = original;
    };
  });
  try {
    return { result: await work(statements), statements };
  } finally {
    for (const restore of patched) restore();
  }
}
