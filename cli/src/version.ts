import { readFileSync } from 'node:fs';

/** The CLI's version, from its package.json (one place to bump; lerna keeps every package on it). */
export const CLI_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
