/**
 * Refuses an unsupported Node as soon as a feedback package is imported, before any of its other
 * modules run, so an application on an old Node gets one line naming the Node it needs, not a
 * TypeError from deep in a dependency (undici 8 fails that way on Node 20). It throws rather than
 * exits: the host application decides what to do. Its syntax and imports must load on old Nodes
 * too; every module of the package must at least parse and link there, or Node fails before this
 * runs (docs/operations.md, "Supported runtimes").
 *
 * Each package calls it from a module of its own that its entry imports first (this package's
 * node-check.ts, the server's runtime-floor.ts).
 */
import { readFileSync } from 'node:fs';

// The floor is this package's `engines` field (">=22.19"; every package says the same), read from
// the package.json beside dist/ (or src/ under tsx); its first "major.minor" is the floor.
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
const [floorMajor = 0, floorMinor = 0] = (/(\d+)\.(\d+)/.exec(manifest.engines.node) ?? []).slice(1).map(Number);

/** Throws, naming `packageName` and the Node it needs, when this Node is older than the floor. */
export function refuseUnsupportedNode(packageName: string): void {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major > floorMajor || (major === floorMajor && minor >= floorMinor)) return;
  const message =
    `${packageName}: Node ${floorMajor}.${floorMinor} or newer is needed (this is Node ${process.versions.node}); ` +
    'in a checkout of feedback, `eval "$(scripts/supported-node)"` puts one on the PATH; see "Supported runtimes" in docs/operations.md';
  // The code lets a host application that imports the package dynamically tell this error apart.
  throw Object.assign(new Error(message), { code: 'ERR_FEEDBACK_UNSUPPORTED_NODE' });
}
