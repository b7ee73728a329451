import { expect } from 'chai';
import { FEEDBACK_TYPES } from '@feedbackd/sdk/contract';
import { DISTINCT_TITLES, keywordPatterns, markerItemCount, NEAR_DUPLICATES, SEED_MARKERS, seedItem, seedTitle, voterPoolSize } from '@feedbackd/server/testing';

/** The items of a seed as `feedback seed` makes them, without a database (the texts are made in TypeScript). */
function items(count: number, seed: number, searchMarkers = false) {
  const plan = { seed, users: voterPoolSize(count), anonymousVoters: voterPoolSize(count), searchMarkers };
  return Array.from({ length: count }, (_, index) => seedItem(plan, index));
}

/**
 * What the similar-items hint matches titles by: their keywords (all of them, word by word: the
 * hint keeps the longest eight). Two titles with the same keywords are near-duplicates.
 */
const keywords = (title: string) => [...new Set(title.split(' ').flatMap((word) => keywordPatterns(word)))].sort().join(' ');

const MARKER = new RegExp(SEED_MARKERS.map((marker) => marker.word).join('|'), 'i');
const deliberate = NEAR_DUPLICATES.flatMap((group) => group.titles);

// Issue 38: a seed of 1,006 items had 707 distinct titles ("Integrate with GitLab" 12 times) and search markers in ten titles.
describe('seeded titles (issue 38)', () => {
  it('when every index of a type is given a title, then none repeats for the first DISTINCT_TITLES indexes, at least 100,000', () => {
    expect(DISTINCT_TITLES).to.be.at.least(100_000);
    for (const type of FEEDBACK_TYPES) {
      const seen = new Set<string>();
      for (let index = 0; index < DISTINCT_TITLES; index++) seen.add(seedTitle(3, type, index).title.toLowerCase());
      expect(seen.size, type).to.equal(DISTINCT_TITLES);
    }
  });

  for (const [count, seeds] of [[1_000, [1, 7]], [100_000, [1]]] as const) {
    it(`when ${count.toLocaleString('en')} items are seeded, then they have ${count.toLocaleString('en')} different titles, and only the documented groups share their keywords`, () => {
      for (const seed of seeds) {
        const seeded = items(count, seed);
        expect(new Set(seeded.map((item) => item.title.toLowerCase())).size, `seed ${seed}`).to.equal(count);
        const byKeywords = new Map<string, string[]>();
        for (const item of seeded) byKeywords.set(keywords(item.title), [...(byKeywords.get(keywords(item.title)) ?? []), item.title]);
        const shared = [...byKeywords.values()].filter((titles) => titles.length > 1);
        const documented = new Set(deliberate.map((near) => near.title));
        expect(shared.flat().filter((title) => !documented.has(title)), `seed ${seed}: near-duplicates nobody planned`).to.deep.equal([]);
      }
    });
  }

  it('when seeded, then the documented near-duplicates are at their indexes with their group\'s type, and each shares keywords with another of its group', () => {
    const seeded = items(100, 1);
    for (const group of NEAR_DUPLICATES) {
      for (const { index, title } of group.titles) {
        expect(seeded[index]).to.include({ title, type: group.type });
        const mine = new Set(keywordPatterns(title));
        const others = group.titles.filter((other) => other.index !== index);
        expect(others.some((other) => keywordPatterns(other.title).some((pattern) => mine.has(pattern))), title).to.equal(true);
      }
    }
    expect(Math.max(...deliberate.map((near) => near.index)), 'all of them in a seed of 100').to.be.below(100);
    expect(Math.min(...deliberate.map((near) => near.index)), 'none among the first 24, which fill every status and type').to.be.at.least(24);
  });

  it('when seeded without --search-markers, then no title or description holds a marker word; with it, exactly their share of the descriptions and no title', () => {
    const plain = items(10_000, 1);
    expect(plain.filter((item) => MARKER.test(`${item.title} ${item.description ?? ''}`))).to.deep.equal([]);
    const marked = items(10_000, 1, true);
    expect(marked.filter((item) => MARKER.test(item.title))).to.deep.equal([]);
    for (const marker of SEED_MARKERS) {
      expect(marked.filter((item) => item.description?.includes(marker.word)).length, marker.word).to.equal(markerItemCount(marker, 10_000));
    }
    // The flag changes the descriptions alone: the same titles, votes and comments.
    expect(marked.map((item) => [item.title, item.identifiedVotes, item.anonymousVotes, item.comments])).to.deep.equal(
      plain.map((item) => [item.title, item.identifiedVotes, item.anonymousVotes, item.comments]),
    );
  });

  it('when seeded, then descriptions differ from one another too, and most items have one', () => {
    const seeded = items(10_000, 1);
    const described = seeded.map((item) => item.description).filter((description) => description !== null);
    expect(described.length).to.be.within(8_000, 9_500);
    // Short ones repeat now and then ("Speaking for a team of 12."), as on a real board; before issue 38 a third did.
    expect(new Set(described).size / described.length, 'share of different descriptions').to.be.above(0.85);
  });

  it('when another seed is used, then the same index gets another title', () => {
    const [one, two] = [items(200, 1), items(200, 2)];
    const same = one.filter((item, index) => item.title === two[index]!.title && !deliberate.some((near) => near.index === index));
    expect(same.length).to.be.below(10);
  });
});
