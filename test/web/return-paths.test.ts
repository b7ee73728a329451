import { expect } from 'chai';
import fc from 'fast-check';
import { returnPathUnder, safeReturn, safeTeamReturn } from '@feedbackd/server/testing';

/**
 * Where the pages' forms and the board's sign-in link may send a browser (kit/forms.ts,
 * returnPathUnder), without a server. Issue 37's open redirect: the prefix was checked before the
 * path was normalised, so `/b/default/../..//evil.example/` passed as a path of the board and
 * resolved to `//evil.example/`, another site.
 */

/** What a browser makes of a Location on our origin. */
function resolvedOrigin(location: string): string {
  return new URL(location, 'https://feedback.example.com/b/default/items/1').origin;
}

/** Dot segments and their percent-encoded spellings, each climbing out of the board. */
const CLIMBS = ['..', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%2E.', '.%2E'];

describe('return paths (open redirect)', () => {
  it('when a return path climbs out of the board with dot segments, plain or percent-encoded, then it is refused (issue 37: open redirect)', () => {
    const refused: string[] = [];
    for (const a of CLIMBS) {
      for (const b of CLIMBS) {
        refused.push(`/b/default/${a}/${b}//evil.example/`, `/b/default/${a}/${b}/evil.example`, `/b/default/${a}//evil.example`, `/b/default/x/${a}/${b}/${b}//evil.example/b/default`);
      }
    }
    refused.push('/b/default/../..//evil.example/', '/b/default/./../..//evil.example/?to=/b/default', '/b/default/%2e%2e/%2e%2e/%2fevil.example', '/b/default/..', '/b/default/%2e%2e', '/b/default/../other');
    for (const value of refused) {
      expect(safeReturn(value, 'default'), value).to.equal(undefined);
      expect(returnPathUnder(value.replace('/b/default', '/team'), '/team'), value).to.equal(undefined);
    }
  });

  it('when a return path is another site, a scheme, a backslash, a control character or a header break, then it is refused', () => {
    const refused = [
      '//evil.example/b/default',
      '///evil.example/b/default',
      'https://evil.example/b/default',
      'http://return.invalid/b/default',
      'javascript:alert(1)//b/default',
      'b/default',
      '',
      '/b/default\\@evil.example',
      '/\\evil.example/b/default',
      '/b/default/%5c%5cevil.example',
      '/b/default/%5C..%5C..%5Cevil.example',
      '/\t/evil.example/b/default',
      '/b/default\t/../..//evil.example',
      '/b/default\n/x',
      '/b/default\r\nSet-Cookie: x=1',
      '/b/default/%0d%0aSet-Cookie:%20x=1',
      '/b/default/%00',
      '/b/default/\u0000',
      '/b/default/\u007f',
      '/b/default/\u0085',
      '/elsewhere',
      '/b/defaultx',
      '/b/default-other/items/1',
      `/b/default/${'x'.repeat(2_000)}`,
      42,
      undefined,
      ['/b/default'],
    ];
    for (const value of refused) expect(safeReturn(value, 'default'), JSON.stringify(value)).to.equal(undefined);
  });

  it('when a return path is a path of the board, then it is kept, normalised, with its query', () => {
    const kept: [string, string][] = [
      ['/b/default', '/b/default'],
      ['/b/default?sortBy=votes&page=2', '/b/default?sortBy=votes&page=2'],
      ['/b/default/items/1', '/b/default/items/1'],
      ['/b/default/./items/1', '/b/default/items/1'],
      ['/b/default/roadmap/../items/1', '/b/default/items/1'],
      ['/b/default/roadmap/%2e%2e/items/1', '/b/default/items/1'],
      ['/b/default/items/1#comments', '/b/default/items/1'],
      ['/b/default?search=a%5Cb', '/b/default?search=a%5Cb'],
      ['/b/default?search=caf\u00e9', '/b/default?search=caf%C3%A9'],
      ['/b/default/..%2f..%2f/evil', '/b/default/..%2f..%2f/evil'],
      ['/b/default//evil.example/', '/b/default//evil.example/'],
    ];
    for (const [value, path] of kept) expect(safeReturn(value, 'default'), value).to.equal(path);
    expect(safeTeamReturn('/team/items/1/%2e%2e/..?status=new')).to.equal('/team/?status=new');
    expect(safeTeamReturn('/team/../..//evil.example/team')).to.equal(undefined);
  });

  it('when any text is given as a return path, then the answer is nothing, or a path under the root on our origin that resolves to itself', () => {
    const pieces = fc.constantFrom('/', '//', '.', '..', '%2e', '%2E', '%2f', '%5c', '\\', '?', '#', 'b', 'default', 'evil.example', ':', '@', '\t', '\n', '%', ' ', '\u202e', 'x');
    const values = fc.oneof(fc.string(), fc.array(pieces, { maxLength: 14 }).map((parts) => `/b/default/${parts.join('')}`), fc.array(pieces, { maxLength: 14 }).map((parts) => parts.join('')));
    fc.assert(
      fc.property(values, (value) => {
        const path = safeReturn(value, 'default');
        if (path === undefined) return;
        expect(path.startsWith('//'), path).to.equal(false);
        expect(path === '/b/default' || path.startsWith('/b/default/') || path.startsWith('/b/default?'), path).to.equal(true);
        expect(resolvedOrigin(path), path).to.equal('https://feedback.example.com');
        expect(safeReturn(path, 'default'), 'a fixed point').to.equal(path);
      }),
      { numRuns: 5_000 },
    );
  });
});
