import { expect } from 'chai';
import { FEEDBACK_STATUSES, FEEDBACK_TYPES } from '@feedbackd/sdk/contract';
import { request, type TestServer } from './test-server.js';

/** Every filter a list can take on status and type: none, each value alone, and a few sets. */
export const LIST_FILTERS = [
  '',
  ...FEEDBACK_STATUSES.map((status) => `status=${status}`),
  ...FEEDBACK_TYPES.map((type) => `type=${type}`),
  'status=new,planned&type=bug,idea',
  'status=planned,in-progress&type=question',
  'status=closed,completed,new',
];

/**
 * Holds every counter of the database to the rows it counts: each item's vote_count and
 * comment_count to count(*) of its votes and comments, the counters' copies of status and type
 * to the item's, every (project, status, type) cell of feedback_stats to count(*) of its items,
 * and no counters, votes or comments left of a deleted item.
 */
export async function expectCountersExact(server: Pick<TestServer, 'sql'>): Promise<void> {
  const wrongItems = await server.sql<Record<string, unknown>>(
    `select f.id, c.vote_count, (select count(*)::int from votes v where v.feedback_id = f.id) as votes,
            c.comment_count, (select count(*)::int from comments m where m.feedback_id = f.id and not m.is_internal) as comments,
            c.status <> f.status or c.type <> f.type as copies_differ
     from feedback f join feedback_counters c on c.feedback_id = f.id
     where c.vote_count <> (select count(*) from votes v where v.feedback_id = f.id)
        or c.comment_count <> (select count(*) from comments m where m.feedback_id = f.id and not m.is_internal)
        or c.status <> f.status or c.type <> f.type`,
  );
  expect(wrongItems, 'items whose counters differ from their rows').to.deep.equal([]);
  const wrongCells = await server.sql<Record<string, unknown>>(
    `with kept as (select project_id, status, type, sum(item_count)::int as n from feedback_stats group by 1, 2, 3),
          counted as (select project_id, status, type, count(*)::int as n from feedback group by 1, 2, 3)
     select coalesce(k.project_id, c.project_id) as project_id, coalesce(k.status, c.status) as status,
            coalesce(k.type, c.type) as type, coalesce(k.n, 0) as kept, coalesce(c.n, 0) as counted
     from kept k full join counted c using (project_id, status, type)
     where coalesce(k.n, 0) <> coalesce(c.n, 0)`,
  );
  expect(wrongCells, '(status, type) cells that differ from count(*)').to.deep.equal([]);
  const orphans = await server.sql<{ n: number }>(
    `select (select count(*) from feedback_counters c where not exists (select 1 from feedback f where f.id = c.feedback_id))
          + (select count(*) from feedback f where not exists (select 1 from feedback_counters c where c.feedback_id = f.id)) as n`,
  );
  expect(Number(orphans[0]!.n), 'items without counters, or counters without items').to.equal(0);
}

/** Holds the list `total` of every status/type filter, read with `apiKey`, to count(*) of its project's items. */
export async function expectListTotalsExact(server: Pick<TestServer, 'url' | 'apiKey' | 'sql'>, apiKey: string = server.apiKey): Promise<void> {
  const [project] = await server.sql<{ project_id: string }>('select project_id from api_keys where key_hash = encode(sha256(convert_to(?, \'utf8\')), \'hex\')', [apiKey]);
  for (const filter of LIST_FILTERS) {
    const params = new URLSearchParams(filter);
    const statuses = params.get('status')?.split(',') ?? [...FEEDBACK_STATUSES];
    const types = params.get('type')?.split(',') ?? [...FEEDBACK_TYPES];
    // The values come from the enumerations above, so quoting them inline is safe.
    const list = (values: string[]) => values.map((value) => `'${value}'`).join(', ');
    const [counted] = await server.sql<{ n: number }>(
      `select count(*)::int as n from feedback where project_id = ? and status in (${list(statuses)}) and type in (${list(types)})`,
      [project!.project_id],
    );
    const listed = await request({ url: server.url, apiKey }, 'GET', `/api/v1/feedback?limit=1&${filter}`);
    expect(listed.status).to.equal(200);
    expect(listed.body.total, `total of "${filter}"`).to.equal(counted!.n);
  }
}
