#!/usr/bin/env node
// Committed launcher: npm links `bin` before `prepare` builds dist/, and links nothing to a missing file.
//
// This whole file must parse and link on any Node that runs ES modules (12.17 on), so that an old
// one says in one line which Node is needed instead of failing deep inside a dependency. Hence no
// top-level await, no syntax newer than what those Nodes parse, the built CLI loaded only after the
// check, and builtins imported without the `node:` prefix, which the ES modules of Node 12 lack.
import { readFileSync } from 'fs';
import * as nodeModule from 'module';
import { setFlagsFromString } from 'v8';

// The floor is this package's `engines` field (">=22.19"), the one place it is written; its first
// "major.minor" is the oldest Node that runs every dependency.
const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const floor = /(\d+)\.(\d+)/.exec(engines).slice(1).map(Number);
const running = process.versions.node.split('.').map(Number);
// The same words as the SDK's and the server's refusal (sdk/src/runtime-floor.ts): in a checkout the
// script gets a supported Node in one command; elsewhere the operations guide says how.
const HOW = 'in a checkout of feedback, `eval "$(scripts/supported-node)"` puts one on the PATH; see "Supported runtimes" in docs/operations.md';

if (running[0] < floor[0] || (running[0] === floor[0] && running[1] < floor[1])) {
  // Exit 1, "unexpected error" in the CLI's exit-code table: the environment is wrong, not the command line.
  // One whole line, newline included, so that the shell's prompt starts on a line of its own.
  process.stderr.write(
    'feedback: Node ' + floor.join('.') + ' or newer is needed (this is Node ' + process.versions.node + '); ' + HOW + '\n',
  );
  process.exitCode = 1;
} else {
  run();
}

// `feedback serve`'s heap, sized for a server instead of by V8's defaults, which follow the
// machine's memory. Measured at 100,000 items under load on a host with 24 GB (docs/operations.md,
// "Memory"), the defaults held 330 to 340 MB resident on PostgreSQL where 36 MB were live objects:
// - 16 MB semispaces (the young generation, where each request's short-lived objects go), as Node
//   gave every machine up to Node 18; V8 took 64 MB there, which a server under load fills.
// - 512 MB of old generation: with its limit at 4 GB, V8 let the old generation fill with 140 MB
//   of garbage before a full collection. 512 MB is about ten times what the server keeps (its
//   caches are bounded); past it the process stops with "heap out of memory" and is restarted by
//   its process manager.
// V8 reads both only as the process starts, so the launcher starts `serve` again with them, in the
// same process (execve keeps the pid, the open descriptors and the environment). A size the
// operator chose (node's own flags or NODE_OPTIONS) is kept; without execve (Windows) V8's are used.
function startServeWithSizedHeap() {
  var HEAP_FLAGS = [
    ['--max-semi-space-size=16', /^--max[-_]semi[-_]space[-_]size/],
    ['--max-old-space-size=512', /^--max[-_]old[-_]space[-_]size/],
  ];
  var args = process.argv.slice(2);
  var command = args.filter(function (arg) { return arg.charAt(0) !== '-'; })[0];
  if (command !== 'serve' || typeof process.execve !== 'function') return;
  var given = process.execArgv.concat((process.env.NODE_OPTIONS || '').split(/\s+/));
  var missing = HEAP_FLAGS.filter(function (flag) {
    return !given.some(function (arg) { return flag[1].test(arg); });
  }).map(function (flag) { return flag[0]; });
  if (missing.length === 0) return;
  process.execve(process.execPath, [process.execPath].concat(missing, process.execArgv, process.argv.slice(1)), process.env);
}

function run() {
  startServeWithSizedHeap();
  // The commands that run the embedded database (PostgreSQL compiled to WebAssembly) in this process.
  const DATABASE_COMMANDS = new Set(['serve', 'migrate', 'keys', 'seed', 'export', 'import']);
  // Every other command makes a few HTTP requests through undici, whose parser is a small WebAssembly
  // module. V8 compiles it at once with its baseline compiler, then again with its optimising one in
  // the background, and Node waits for that second compile before the process exits: about 70 ms of
  // a 250 ms `feedback list`, for code that parses a handful of responses. The embedded database
  // needs the optimised code, so its commands keep V8's default.
  if (!process.argv.slice(2).some((arg) => DATABASE_COMMANDS.has(arg))) setFlagsFromString('--liftoff-only');
  // V8's compiled code of the modules the command loads, kept on disk between runs (Node's compile
  // cache, in the system's temporary directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a
  // command then starts without compiling the CLI, the SDK and their dependencies again, about a
  // tenth of a `feedback list`. Where the directory cannot be written Node goes on without it.
  nodeModule.enableCompileCache();
  // The CLI runs from one bundle (scripts/bundle.js); FEEDBACK_DEBUG=1 maps its stack traces back
  // to src/. Off otherwise: Node then reads every source map as it loads each chunk.
  if (process.env.FEEDBACK_DEBUG) process.setSourceMapsEnabled(true);

  import('../dist/bundle/index.js')
    .then(({ main }) => main(process.argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error) => {
        if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
          process.stderr.write('feedback: the CLI is not built yet; run `npm run build` in the project first\n');
          process.exitCode = 1;
        } else {
          throw error;
        }
      },
    );
}
