// `npm run build`, after tsc: the compiled CLI (dist/index.js and every module it imports, the SDK,
// zod and commander among them) bundled into dist/bundle/, which bin/feedback.js runs.
//
// Why: a `feedback list` once loaded about 180 modules one by one, and resolving, reading and
// linking each costs Node more than running it (npm run bench:cli). The bundle keeps the CLI's
// shape: each command is still a dynamic import, now of a chunk of its own (chunks/list-*.js), so a
// run loads the command it names and no other, and what is shared sits in common chunks. It is not
// minified, and its source maps point at src/ (FEEDBACK_DEBUG=1 turns them on for stack traces).
//
// Left outside, loaded from node_modules as before: the server (only the database commands load
// it, and it is large) and undici (the SDK loads its parts by path with `require`, which a bundler
// cannot follow). dist/bundle/meta.json says which source file went into which chunk; the start-up
// test reads it to name the modules a run loaded.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, encode } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';

const cli = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(cli, 'dist', 'bundle');

// A module that reads its own package's package.json (the CLI's and the SDK's version, the SDK's
// Node floor) would find none beside the bundle: it gets the file's text as it was at build time,
// which is the package the bundle holds.
const OWN_MANIFEST = /readFileSync\(new URL\('\.\.\/package\.json', import\.meta\.url\), 'utf8'\)/g;
// What may still use import.meta.url in the bundle: the SDK's require of undici's parts, which
// resolves from wherever the bundle is installed, as undici is a dependency of the CLI too.
const ALLOWED_META_URL = /createRequire\(import\.meta\.url\)/g;

const packageFiles = {
  name: 'package-files',
  setup(builder) {
    builder.onLoad({ filter: /\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const manifest = () => JSON.stringify(readFileSync(join(dirname(args.path), '..', 'package.json'), 'utf8'));
      const contents = source.includes('import.meta.url') ? source.replace(OWN_MANIFEST, manifest) : source;
      // Any other file read next to a module would break inside the bundle: stop the build instead.
      if (contents.replace(ALLOWED_META_URL, '').includes('import.meta.url')) {
        throw new Error(`${args.path} resolves a path from import.meta.url, which the bundle moves: read it another way or mark the package external`);
      }
      return { contents, loader: 'js' };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: cli,
  entryPoints: ['dist/index.js'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  external: ['@feedbackd/server', '@feedbackd/server/*', 'undici', 'undici/*'],
  plugins: [packageFiles],
  logLevel: 'warning',
});
writeFileSync(join(outdir, 'meta.json'), JSON.stringify(result.metafile));
for (const output of Object.keys(result.metafile.outputs).filter((path) => path.endsWith('.map'))) ownSourcesOnly(join(cli, output));

/**
 * The package ships its source maps with the sources they name (src/ beside dist/), and the
 * packing test checks that every named source is in the tarball. The bundle's code from the other
 * packages (the SDK, zod, commander) would be mapped to files that exist only in a checkout: it
 * is left unmapped instead (it is not minified, so a stack trace into it still reads).
 */
function ownSourcesOnly(mapFile) {
  const map = JSON.parse(readFileSync(mapFile, 'utf8'));
  const keep = map.sources.map((source) => !relative(cli, join(dirname(mapFile), source)).startsWith('..'));
  const newIndex = [];
  let next = 0;
  keep.forEach((kept, i) => {
    if (kept) newIndex[i] = next++;
  });
  map.sources = map.sources.filter((_, i) => keep[i]);
  // A segment of one field (its column alone) maps the code from there on to nothing.
  const lines = decode(map.mappings).map((line) => line.map((s) => (s.length === 1 ? s : keep[s[1]] ? [s[0], newIndex[s[1]], ...s.slice(2)] : [s[0]])));
  map.mappings = encode(lines);
  writeFileSync(mapFile, JSON.stringify(map));
}
