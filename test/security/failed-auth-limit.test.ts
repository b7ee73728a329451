import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { FailedAuthLimit } from '@feedbackd/server';

describe('FailedAuthLimit: the per-address count of failed authentications', () => {
  it('when an address reaches the limit, then it is blocked until its window ends, and others are not', () => {
    const limit = new FailedAuthLimit(2, 1_000);
    limit.record('a', 0);
    expect(limit.blockedFor('a', 10)).to.equal(0);
    limit.record('a', 10);
    expect(limit.blockedFor('a', 10)).to.equal(990);
    expect(limit.blockedFor('b', 10)).to.equal(0);
    expect(limit.blockedFor('a', 1_000)).to.equal(0);
  });

  it('when every window has ended, then nothing is tracked any more (requests stop paying for the check)', async () => {
    const limit = new FailedAuthLimit(2, 30);
    expect(limit.tracking).to.equal(false);
    limit.record('a');
    expect(limit.tracking).to.equal(true);
    await sleep(60);
    expect(limit.tracking).to.equal(false);
    expect(limit.blockedFor('a')).to.equal(0);
  });
});
