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
});
