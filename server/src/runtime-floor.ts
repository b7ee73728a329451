/**
 * Refuses an unsupported Node as soon as the package is imported, first of all its modules (it is
 * the first import of index.ts, and imports nothing that could fail itself), so an application on
 * an old Node gets one line naming the Node it needs, not a TypeError from deep in a dependency
 * once a request arrives. It throws rather than exits: the host application decides what to do.
 * Its syntax and imports must load on old Nodes too; every module of the package must at least
 * parse and link there, or Node fails before this runs (docs/operations.md, "Supported runtimes").
 */
import { readFileSync } from 'node:fs';

// The floor is this package's `engines` field (">=22.19"), the one place it is written, read from
// the package.json beside dist/ (or src/ under tsx); its first "major.minor" is the floor.
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
const floor = (/(\d+)\.(\d+)/.exec(manifest.engines.node) ?? []).slice(1).map(Number);
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const [floorMajor = 0, floorMinor = 0] = floor;

if (major < floorMajor || (major === floorMajor && minor < floorMinor)) {
  const message =
    `@feedbackd/server: Node ${floorMajor}.${floorMinor} or newer is needed (this is Node ${process.versions.node}); ` +
    'see "Supported runtimes" in docs/operations.md of the feedback repository for how to get it';
  // The code lets a host application that imports the package dynamically tell this error apart.
  throw Object.assign(new Error(message), { code: 'ERR_FEEDBACK_UNSUPPORTED_NODE' });
}
