#!/usr/bin/env node
// Committed launcher: npm links `bin` before `prepare` builds dist/, and links nothing to a missing file.
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
