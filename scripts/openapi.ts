/**
 * `npm run openapi`: writes docs/openapi.json, the OpenAPI document generated from the contract
 * (server/src/openapi.ts). Run it after changing the route table or its schemas and commit the
 * file: a test fails while the committed document differs from the generated one.
 * It reads the built packages, so it builds them first (see the root package.json).
 */
import { writeFileSync } from 'node:fs';
import { openApiFileText } from '@feedbackd/server';

writeFileSync(new URL('../docs/openapi.json', import.meta.url), openApiFileText());
process.stdout.write('wrote docs/openapi.json\n');
