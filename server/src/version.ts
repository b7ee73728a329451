import { readFileSync } from 'node:fs';

/** The server's version, from its package.json (beside dist/ and src/ alike), for `GET /` and logs. */
export const SERVER_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
