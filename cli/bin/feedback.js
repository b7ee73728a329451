#!/usr/bin/env node
// Committed launcher: npm links `bin` before `prepare` builds dist/, and links nothing to a missing file.
import { setFlagsFromString } from 'node:v8';

// The commands that run the embedded database (PostgreSQL compiled to WebAssembly) in this process.
const DATABASE_COMMANDS = new Set(['serve', 'migrate', 'keys', 'seed', 'export', 'import']);
// Every other command makes a few HTTP requests through undici, whose parser is a small WebAssembly
// module. V8 compiles it at once with its baseline compiler, then again with its optimising one in
// the background, and Node waits for that second compile before the process exits: about 70 ms of
// a 250 ms `feedback list`, for code that parses a handful of responses. The embedded database
// needs the optimised code, so its commands keep V8's default.
if (!process.argv.slice(2).some((arg) => DATABASE_COMMANDS.has(arg))) setFlagsFromString('--liftoff-only');

try {
  const { main } = await import('../dist/index.js');
  process.exitCode = await main(process.argv);
} catch (error) {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
    process.stderr.write('feedback: the CLI is not built yet; run `npm run build` in the project first\n');
    process.exitCode = 1;
  } else {
    throw error;
  }
}
