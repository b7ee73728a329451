/**
 * `npm run schema`: writes server/src/db/schema.sql, the whole current schema read from a freshly
 * migrated embedded database (scripts/schema-text.ts). Run it after adding a migration and commit
 * the file: a test fails while the committed schema differs from what the migrations make.
 * It migrates with the built server, so it builds first (see the root package.json).
 */
import { writeFileSync } from 'node:fs';
import { freshEmbeddedSchemaText } from './schema-text.js';

writeFileSync(new URL('../server/src/db/schema.sql', import.meta.url), await freshEmbeddedSchemaText());
process.stdout.write('wrote server/src/db/schema.sql\n');
