import { expect } from 'chai';
import { LeaseClient, LimitBank, type Grant } from '@feedbackd/server/testing';

/**
 * Several simulated workers lease from one bank over a channel that delivers each message after a
 * random number of ticks, in order per direction, as node:cluster's IPC does. Deterministic
 * for a seed.
 */
function simulate(options: { workers: number; points: number; seed: number }) {
  let state = options.seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  // One FIFO lane per (direction, worker): a message never overtakes the one sent before it.
  const lanes = new Map<string, Promise<void>>();
  const deliver = (lane: string, action: () => void) => {
    const previous = lanes.get(lane) ?? Promise.resolve();
    const next = previous.then(async () => {
      for (let ticks = Math.floor(random() * 4); ticks > 0; ticks--) await new Promise((resolve) => setImmediate(resolve));
      action();
    });
    lanes.set(lane, next);
  };
  const clients: LeaseClient[] = [];
  const bank = new LimitBank(options.points, 60_000, {
    count: () => options.workers,
    reclaim: (holder, key, resetAt) =>
      deliver(`to-${holder}`, () => {
        const count = clients[holder]!.giveBack(key, resetAt);
        deliver(`from-${holder}`, () => bank.returned(holder, key, resetAt, count));
      }),
  });
  for (let holder = 0; holder < options.workers; holder++) {
    clients.push(
      new LeaseClient(options.points, 60, (key, want, reply: (grant: Grant | Error) => void) =>
        deliver(`from-${holder}`, () => bank.take(holder, key, want, (grant) => deliver(`to-${holder}`, () => reply(grant)))),
      ),
    );
  }
  return { clients, random };
}

describe('rate limit bank: one budget shared by every worker of a machine', () => {
  for (const [workers, points, requests] of [
    [2, 100, 300],
    [4, 100, 1_000],
    [3, 7, 50],
    [2, 1, 10],
    [8, 1_000, 2_500],
  ] as const) {
    it(`when ${workers} workers serve ${requests} concurrent requests of one key against a limit of ${points}, then exactly ${points} are allowed`, async () => {
      for (const seed of [1, 2, 3]) {
        const { clients, random } = simulate({ workers, points, seed });
        const results = await Promise.all(Array.from({ length: requests }, () => clients[Math.floor(random() * workers)]!.consume('key-a')));
        expect(results.filter((r) => r.allowed), `seed ${seed}`).to.have.length(points);
        for (const refused of results.filter((r) => !r.allowed)) {
          expect(refused.remaining).to.equal(0);
          expect(refused.msBeforeNext).to.be.above(0).and.at.most(60_000);
        }
      }
    });
  }

  it('when requests come in waves on different workers, then the total allowed never exceeds the limit and reaches it', async () => {
    const { clients } = simulate({ workers: 3, points: 50, seed: 7 });
    let allowed = 0;
    for (let wave = 0; wave < 10; wave++) {
      const worker = clients[wave % 3]!;
      const results = await Promise.all(Array.from({ length: 8 }, () => worker.consume('key-b')));
      allowed += results.filter((r) => r.allowed).length;
    }
    expect(allowed).to.equal(50);
  });

  it('when two keys are used, then each has its own budget', async () => {
    const { clients } = simulate({ workers: 2, points: 10, seed: 3 });
    const a = await Promise.all(Array.from({ length: 20 }, (_, i) => clients[i % 2]!.consume('a')));
    const b = await Promise.all(Array.from({ length: 20 }, (_, i) => clients[i % 2]!.consume('b')));
    expect(a.filter((r) => r.allowed)).to.have.length(10);
    expect(b.filter((r) => r.allowed)).to.have.length(10);
  });

  it('when one process serves a key, then remaining falls by exactly one per request', async () => {
    const { clients } = simulate({ workers: 1, points: 20, seed: 5 });
    const remaining: number[] = [];
    for (let i = 0; i < 22; i++) remaining.push((await clients[0]!.consume('c')).remaining);
    expect(remaining).to.deep.equal([...Array.from({ length: 20 }, (_, i) => 19 - i), 0, 0]);
  });

  it('when a worker holding a lease goes away, then what it held stays spent and the others are refused at the limit, not blocked', async () => {
    let reclaims = 0;
    const bank = new LimitBank(10, 60_000, { count: () => 2, reclaim: () => reclaims++ });
    const grants: Grant[] = [];
    bank.take(1, 'k', 10, (grant) => grants.push(grant));
    expect(grants[0]!.granted).to.be.above(0);
    // Worker 2 spends all that is left, then asks again: the bank wants worker 1's lease back.
    let left = 10 - grants[0]!.granted;
    while (left > 0) {
      bank.take(2, 'k', 10, (grant) => (left -= grant.granted));
    }
    const refused: Grant[] = [];
    bank.take(2, 'k', 10, (grant) => refused.push(grant));
    expect(reclaims).to.equal(2);
    expect(refused, 'waits for the reclaims').to.deep.equal([]);
    bank.returned(2, 'k', grants[0]!.resetAt, 0);
    bank.forget(1);
    expect(refused).to.have.length(1);
    expect(refused[0]!.granted).to.equal(0);
  });
});
