import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { cruise, type IViolation } from 'dependency-cruiser';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * No module of the packages imports itself through others. A cycle is how two copies of a module
 * and half-initialised imports come about, and how a folder stops saying what depends on what.
 * dependency-cruiser reads the built JavaScript (it cannot parse TypeScript 7 sources yet), so it
 * sees the imports that run; a type-only import, erased by the build, makes no cycle at run time.
 */
describe('import graph', () => {
  it('when the built packages are cruised, then no import cycle is found', async () => {
    const result = await cruise(['sdk/dist', 'server/dist', 'cli/dist'], {
      baseDir: ROOT,
      doNotFollow: { path: 'node_modules' },
      validate: true,
      ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] },
    });
    const output = result.output;
    if (typeof output === 'string') throw new Error(`dependency-cruiser answered text: ${output}`);
    expect(output.summary.totalCruised, 'modules read').to.be.greaterThan(100);
    const cycles = output.summary.violations.map((violation: IViolation) => [violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(' -> '));
    expect(cycles).to.deep.equal([]);
  });

  it('when the TypeScript sources are read, type-only imports included, then no file imports itself through others', () => {
    const graph = sourceGraph(['sdk/src', 'server/src', 'cli/src']);
    expect(graph.size, 'source files read').to.be.greaterThan(100);
    expect(cyclesOf(graph)).to.deep.equal([]);
  });
});

/** Every .ts file under `folders`, with the files of the package that it imports (or re-exports, or loads lazily). */
function sourceGraph(folders: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const specifier = /(?:^|\n)\s*(?:import|export)\b[^'"]*?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  const visit = (folder: string) => {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts')) {
        const text = readFileSync(join(ROOT, path), 'utf8');
        const targets = [...text.matchAll(specifier)].map((match) => normalize(join(dirname(path), (match[1] ?? match[2])!)).replace(/\.js$/, '.ts'));
        graph.set(normalize(path), targets);
      }
    }
  };
  for (const folder of folders) visit(folder);
  return graph;
}

/** The import cycles of `graph`, each as "a -> b -> a". */
function cyclesOf(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const cycles: string[] = [];
  const walk = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].map((name) => relative('.', name)).join(' -> '));
      else if (!state.has(next)) walk(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) walk(file);
  return cycles;
}
