import { expect } from 'chai';
import { backends } from '../helpers/backends.js';
import { request, withServer } from '../helpers/test-server.js';

/** A small seeded generator, so that a failing batch is the same batch on the next run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

class RolledBack extends Error {}

/**
 * The vote batch statement (migration 0026, docs/architecture.md, "Vote toggles in batches")
 * answers each toggle as the loop it replaced did (`toggle_votes_in_turn`, one `toggle_vote` per
 * toggle). Both run on the same random batches, each in a transaction that is rolled back, and
 * everything they answer and write is compared: the rows, the votes, the counters, the
 * subscriptions and the webhook event.
 */
for (const backend of backends()) {
  describe(`Vote batch statement (${backend.name})`, () => {
    const server = withServer(backend);

    it('when random batches (voters known and unknown, anonymous, repeated, on items found and not) run through the set-based statement and through the loop, then both answer and write the same', async () => {
      const submitted = await Promise.all(
        [0, 1, 2, 3, 4].map((n) => request(server, 'POST', '/api/v1/feedback', { body: { title: `Item ${n}`, endUser: { externalId: `author-${n}` } } })),
      );
      const items = submitted.map((res) => res.body.feedback.id as string);
      const users = ['ada', 'bo', 'cy', 'di', 'eve'];
      for (const externalId of users) expect((await request(server, 'POST', '/api/v1/identify', { body: { externalId } })).status).to.equal(200);
      // Votes that are there already, so that toggles take some back.
      for (const [item, externalId] of [[items[0]!, 'ada'], [items[1]!, 'bo'], [items[1]!, 'cy'], [items[2]!, 'ada']] as const) {
        expect((await request(server, 'POST', `/api/v1/feedback/${item}/vote`, { body: { endUser: { externalId } } })).status).to.equal(200);
      }
      const project = (await server.sql<{ project: string }>('select project_id as project from feedback where id = ?', [items[0]]))[0]!.project;
      const itemChoices = [...items, '00000000-0000-4000-8000-000000000000'];
      const voterChoices: Array<{ externalId: string | null; voterKey: string | null }> = [
        ...users.map((externalId) => ({ externalId, voterKey: null })),
        { externalId: 'nobody-yet', voterKey: null },
        { externalId: null, voterKey: 'ip2:first' },
        { externalId: null, voterKey: 'ip2:second' },
      ];

      const random = generator(48);
      const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
      let repeated = 0;
      for (let round = 0; round < 80; round++) {
        const toggles = Array.from({ length: 1 + Math.floor(random() * 8) }, () => ({ item: pick(itemChoices), ...pick(voterChoices) }));
        if (new Set(toggles.map((t) => `${t.item} ${t.externalId} ${t.voterKey}`)).size < toggles.length) repeated++;
        const [setBased, inTurn] = [await run('toggle_votes', toggles), await run('toggle_votes_in_turn', toggles)];
        expect(setBased, `round ${round}: ${JSON.stringify(toggles)}`).to.deep.equal(inTurn);
      }
      // Both paths of the statement were taken: batches with a repeated toggle, and without.
      expect(repeated).to.be.within(5, 75);

      /** Runs one batch through `fn` in a transaction that is rolled back, and returns what it answered and wrote. */
      async function run(fn: string, toggles: Array<{ item: string; externalId: string | null; voterKey: string | null }>): Promise<unknown> {
        let seen: unknown;
        await server.server.orm.em
          .fork()
          .transactional(async (tx) => {
            // Other reasons and an unsubscribe on some rows, and every event wanted, so that each branch writes.
            await tx.execute('update subscriptions set reasons = reasons | 4 where feedback_id = ?', [items[0]]);
            await tx.execute('update subscriptions set unsubscribed_at = now() where feedback_id = ?', [items[1]]);
            await tx.execute('delete from webhook_events where project_id = ?', [project]);
            await tx.execute(`insert into webhook_endpoints (project_id, url, secret) values (?, 'http://127.0.0.1:9/hook', 'whsec_test')`, [project]);
            const answers = await tx.execute(
              `select * from ${fn}(?::uuid, array(select json_array_elements_text(?::json))::uuid[], array(select json_array_elements_text(?::json)), array(select json_array_elements_text(?::json))) order by idx`,
              [project, JSON.stringify(toggles.map((t) => t.item)), JSON.stringify(toggles.map((t) => t.externalId)), JSON.stringify(toggles.map((t) => t.voterKey))],
            );
            const [written] = await tx.execute(
              `select
                (select json_agg(json_build_object('item', feedback_id, 'votes', vote_count) order by feedback_id) from feedback_counters where project_id = ?) as counters,
                (select json_agg(json_build_object('item', v.feedback_id, 'voter', v.voter_key, 'user', v.end_user_id) order by v.feedback_id, v.voter_key) from votes v join feedback f on f.id = v.feedback_id where f.project_id = ?) as votes,
                (select json_agg(json_build_object('item', feedback_id, 'user', end_user_id, 'reasons', reasons, 'unsubscribed', unsubscribed_at is not null) order by feedback_id, end_user_id) from subscriptions where project_id = ?) as subscriptions,
                (select json_agg(json_build_object('type', type, 'data', data)) from webhook_events where project_id = ?) as events`,
              [project, project, project, project],
            );
            seen = { answers, written };
            throw new RolledBack();
          })
          .catch((error: unknown) => {
            if (!(error instanceof RolledBack)) throw error;
          });
        return seen;
      }
    });
  });
}
