import { expect } from 'chai';
import { FEEDBACK_TYPES } from '@feedbackd/sdk/contract';
import { backends } from '../helpers/backends.js';
import { expectListTotalsExact } from '../helpers/invariants.js';
import { request, withServer } from '../helpers/test-server.js';

/**
 * `total` of a list is not counted row by row: it sums per-project (status, type) cells that
 * triggers on `feedback` keep in the same transaction as every change to an item. These tests
 * hold those cells to count(*).
 */
for (const backend of backends()) {
  describe(`list totals from the per-project counts (${backend.name})`, () => {
    const server = withServer(backend);

    it('4.3 total: when 120 items are submitted concurrently (identified and anonymous, every type), then every filtered total equals count(*)', async () => {
      const results = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          request(server, 'POST', '/api/v1/feedback', {
            body: {
              title: `Concurrent ${i}`,
              type: FEEDBACK_TYPES[i % 4],
              ...(i % 3 === 0 ? {} : { endUser: { externalId: `totals-user-${i % 7}`, name: `User ${i % 7}` } }),
            },
          }),
        ),
      );
      expect(results.map((r) => r.status).filter((s) => s !== 201)).to.deep.equal([]);
      await expectListTotalsExact(server);
    });

    it('4.3 total: when items change status, type or project and are deleted in bulk (operator SQL), then the counts follow in the same transaction', async () => {
      await Promise.all(Array.from({ length: 30 }, (_, i) => request(server, 'POST', '/api/v1/feedback', { body: { title: `Moved ${i}`, type: 'bug' } })));
      await server.sql(`update feedback set status = case when random() < 0.5 then 'planned' else 'closed' end, type = 'question' where title like 'Moved %'`);
      await expectListTotalsExact(server);
      await server.sql(`delete from feedback where title like 'Moved 1%'`);
      await expectListTotalsExact(server);
      // A rolled back change leaves the counts as they were.
      await server.sql(`do $$ begin update feedback set status = 'completed'; raise exception 'roll back'; exception when others then null; end $$`);
      await expectListTotalsExact(server);
    });

    it('4.3 total: when a search is listed, then its total is the number of matches, on every page and past the last one', async () => {
      await Promise.all(Array.from({ length: 25 }, (_, i) => request(server, 'POST', '/api/v1/feedback', { body: { title: `Needle ${i}`, type: i % 2 ? 'bug' : 'idea' } })));
      for (const page of [1, 2, 3, 4]) {
        const res = await request(server, 'GET', `/api/v1/feedback?search=needle&limit=10&page=${page}`);
        expect(res.body.total, `page ${page}`).to.equal(25);
        expect(res.body.items).to.have.length(page <= 2 ? 10 : page === 3 ? 5 : 0);
        expect(res.body.totalPages).to.equal(3);
      }
      const bugs = await request(server, 'GET', '/api/v1/feedback?search=needle&type=bug&page=9');
      expect(bugs.body.total).to.equal(12);
      expect(bugs.body.items).to.deep.equal([]);
    });
  });
}
