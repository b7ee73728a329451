import { readFileSync } from 'node:fs';

/**
 * The version of this SDK, sent in the `user-agent` header. Read from the package's own
 * package.json (beside dist/ and src/ alike), so that a release changes it in one place.
 */
export const SDK_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
