import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The @electric-sql/pglite package that `from` (a file URL) resolves, and its version. The one
 * restore-dump.ts writes the data directory with and the one the server loads should be one package.
 */
export function pglitePackage(from: URL): { dir: string; version: string } {
  // The package exports no ./package.json: resolve its entry point and climb to its manifest.
  let dir = dirname(createRequire(from).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json')) || packageName(dir) !== '@electric-sql/pglite') {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json of @electric-sql/pglite above ${from.href}`);
    dir = parent;
  }
  return { dir, version: (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version };
}

function packageName(dir: string): string | undefined {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name;
}

/** Where restore-dump.ts, beside this file, takes its PGlite from. */
export const HELPER_URL = new URL('../upgrade/restore-dump.ts', import.meta.url);
/** Where the server's comes from. */
export const SERVER_URL = new URL('../../server/package.json', import.meta.url);
