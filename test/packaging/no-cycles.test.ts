import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
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
  it('when the built packages are cruised, then no import cycle is found and no import runs against the floors', async () => {
    const result = await cruise(['sdk/dist', 'server/dist', 'cli/dist'], {
      baseDir: ROOT,
      doNotFollow: { path: 'node_modules' },
      // The CLI's bundle (cli/scripts/bundle.js) is made from the modules cruised here, zod and commander with them.
      exclude: { path: '^cli/dist/bundle/' },
      validate: true,
      ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }, ...FLOOR_RULES] },
    });
    const output = result.output;
    if (typeof output === 'string') throw new Error(`dependency-cruiser answered text: ${output}`);
    expect(output.summary.totalCruised, 'modules read').to.be.greaterThan(100);
    const arrows = output.summary.violations.map((violation: IViolation) =>
      violation.rule.name === 'no-circular'
        ? `cycle: ${[violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(' -> ')}`
        : `${violation.rule.name}: ${violation.from} -> ${violation.to}`,
    );
    expect(arrows).to.deep.equal([]);
  });

  it('when the TypeScript sources are read, type-only imports included, then no file imports itself through others or against the floors', () => {
    const graph = sourceGraph(['sdk/src', 'server/src', 'cli/src']);
    expect(graph.size, 'source files read').to.be.greaterThan(100);
    expect(cyclesOf(graph)).to.deep.equal([]);
    expect(arrowsAgainstFloors(graph)).to.deep.equal([]);
    expect(arrowsBetweenWebAreas(graph)).to.deep.equal([]);
    expect(arrowsPastFloors(graph)).to.deep.equal([]);
  });

  it('when the domain\'s sources are read, then none imports Koa: the domain knows no request and no HTTP status', () => {
    const koa: string[] = [];
    const visit = (folder: string) => {
      for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (entry.name.endsWith('.ts') && PACKAGE_SPECIFIER.test(readFileSync(join(ROOT, path), 'utf8'))) koa.push(path);
      }
    };
    visit('server/src/domain');
    expect(koa).to.deep.equal([]);
  });
});

/**
 * The server's floors, lowest first (docs/architecture.md, "Floors"): a module imports only from
 * its own floor or the floors below it, so a folder can be read, tested and changed knowing only
 * what is under it. The files at the top of server/src sit where their imports put them: the
 * leaves (logger, version, the serve defaults, the runtime check, origins, board paths, HTML
 * escaping, the message catalogue) under everything, the app above the pages, the package's
 * entry points on top. The domain is what the product does, below any request; delivery and ops
 * work outside requests on the domain's statements; routes are the contract's endpoints.
 */
const SERVER_FLOORS = [
  ['logger', 'version', 'serve-defaults', 'runtime-floor', 'origins', 'board-paths', 'html-escape', 'i18n'],
  ['db'],
  ['limits', 'metrics'],
  ['domain'],
  ['delivery', 'ops'],
  ['http'],
  ['routes'],
  ['web'],
  ['openapi', 'app'],
  ['jobs'],
  ['serve'],
  ['cluster'],
  ['index', 'testing'],
];

/**
 * Inside web/: the page kit under the three areas (the board, the team's pages, the widget), which
 * never import each other, so any can be read, changed or removed without the others; what they
 * share is the kit's.
 */
const WEB_AREA_RULES = [
  { name: 'web/kit imports no area', from: 'kit', to: ['board', 'team', 'widget'] },
  { name: 'web/board imports nothing of the team or the widget', from: 'board', to: ['team', 'widget'] },
  { name: 'web/team imports nothing of the board or the widget', from: 'team', to: ['board', 'widget'] },
  { name: 'web/widget imports nothing of the board or the team', from: 'widget', to: ['board', 'team'] },
];

/**
 * Floors that a higher one may not reach down to although it is below: the machine's jobs run
 * outside requests and never load a page (what a page and a job share is the domain's).
 */
const PAST_FLOOR_RULES = [{ name: 'jobs import no page', from: 'jobs', to: 'web' }];

/** A package import of Koa or its router, which the domain never makes. */
const PACKAGE_SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'"]*?['"](?:koa|@koa\/[^'"]+)['"]|import\(\s*['"](?:koa|@koa\/[^'"]+)['"]\s*\)/;

const inServer = (names: string[]) => `^server/dist/(${names.join('|')})(/|[.]js$)`;

/** dependency-cruiser rules: each floor against every floor above it, and the packages' own order (sdk < server < cli). */
const FLOOR_RULES = [
  ...SERVER_FLOORS.slice(0, -1).map((names, index) => ({
    name: `floor ${names.join(', ')}`,
    severity: 'error' as const,
    from: { path: inServer(names) },
    to: { path: inServer(SERVER_FLOORS.slice(index + 1).flat()) },
  })),
  ...WEB_AREA_RULES.map(({ name, from, to }) => ({ name, severity: 'error' as const, from: { path: `^server/dist/web/${from}/` }, to: { path: `^server/dist/web/(${to.join('|')})/` } })),
  ...PAST_FLOOR_RULES.map(({ name, from, to }) => ({ name, severity: 'error' as const, from: { path: inServer([from]) }, to: { path: inServer([to]) } })),
  { name: 'domain imports no koa', severity: 'error' as const, from: { path: inServer(['domain']) }, to: { path: 'node_modules/(koa|@koa)/' } },
  { name: 'sdk imports no other package', severity: 'error' as const, from: { path: '^sdk/' }, to: { path: '^(server|cli)/' } },
  { name: 'server imports no cli', severity: 'error' as const, from: { path: '^server/' }, to: { path: '^cli/' } },
];

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

/** The floor of a server source file (SERVER_FLOORS' index), or undefined outside server/src. */
function floorOf(file: string): number | undefined {
  const match = /^server\/src\/([^/.]+)/.exec(file.split(sep).join('/'));
  if (!match) return undefined;
  const index = SERVER_FLOORS.findIndex((names) => names.includes(match[1]!));
  return index < 0 ? undefined : index;
}

/** The imports of `graph`, type-only ones included, from a server file to one on a higher floor. */
function arrowsAgainstFloors(graph: Map<string, string[]>): string[] {
  const arrows: string[] = [];
  for (const [file, targets] of graph) {
    const from = floorOf(file);
    for (const target of targets) {
      const to = floorOf(target);
      if (from !== undefined && to !== undefined && to > from) arrows.push(`${file} -> ${target}`);
    }
  }
  return arrows;
}

/** The imports of `graph`, type-only ones included, that WEB_AREA_RULES forbid (web/kit to an area, an area to the other). */
function arrowsBetweenWebAreas(graph: Map<string, string[]>): string[] {
  const areaOf = (file: string) => /^server\/src\/web\/([^/]+)\//.exec(file.split(sep).join('/'))?.[1];
  const arrows: string[] = [];
  for (const [file, targets] of graph) {
    const rule = WEB_AREA_RULES.find((candidate) => candidate.from === areaOf(file));
    if (!rule) continue;
    for (const target of targets) {
      const to = areaOf(target);
      if (to !== undefined && rule.to.includes(to)) arrows.push(`${rule.name}: ${file} -> ${target}`);
    }
  }
  return arrows;
}

/** The imports of `graph`, type-only ones included, that PAST_FLOOR_RULES forbid (the jobs to a page). */
function arrowsPastFloors(graph: Map<string, string[]>): string[] {
  const folderOf = (file: string) => /^server\/src\/([^/.]+)/.exec(file.split(sep).join('/'))?.[1];
  const arrows: string[] = [];
  for (const [file, targets] of graph) {
    for (const rule of PAST_FLOOR_RULES.filter((candidate) => candidate.from === folderOf(file))) {
      for (const target of targets) if (folderOf(target) === rule.to) arrows.push(`${rule.name}: ${file} -> ${target}`);
    }
  }
  return arrows;
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
