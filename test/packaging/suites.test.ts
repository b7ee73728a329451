import { expect } from 'chai';
import { allTestFiles, FULL_ONLY, PACK_INSTALL, quickFiles, quickFilesOnEveryBackend } from '../helpers/suites.js';

describe('the two test commands', () => {
  it('when the heavy files of `npm run test:full` are listed, then each exists, and with the quick files of `npm test` they are every test file, each once', () => {
    const all = allTestFiles();
    expect(all.length, 'test files found').to.be.greaterThan(100);
    expect(FULL_ONLY.filter((file) => !all.includes(file)), 'listed but not found').to.deep.equal([]);
    expect(new Set(FULL_ONLY).size, 'listed twice').to.equal(FULL_ONLY.length);
    expect([...quickFiles(), ...FULL_ONLY].sort()).to.deep.equal(all);
    expect(FULL_ONLY).to.include(PACK_INSTALL);
  });

  it('when the quick files are read, then those with suites on every backend are found, and none of them is a heavy file', () => {
    const everyBackend = quickFilesOnEveryBackend();
    expect(everyBackend).to.include('test/server/votes.test.ts');
    expect(everyBackend).not.to.include('test/browser/board.test.ts');
    expect(everyBackend.filter((file) => FULL_ONLY.includes(file))).to.deep.equal([]);
  });
});
