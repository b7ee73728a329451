import type { MikroORM } from '@feedbackd/server';

const TOPICS = [
  'Dark mode', 'Export to CSV', 'Slack integration', 'Faster search', 'Keyboard shortcuts',
  'Mobile app crashes', 'SSO with Okta', 'Bulk edit', 'Webhooks', 'Calendar view',
  'Password reset email late', 'API rate limits', 'Custom fields', 'Offline mode', 'Two-factor login',
  'Zapier', 'PDF invoices', 'Translations', 'Audit log', 'Public roadmap',
];
const WORDS = ['please', 'would', 'love', 'broken', 'when', 'sometimes', 'team', 'users', 'report', 'option', 'settings', 'page'];

/**
 * Writes `count` items (with counters) and a pool of submitters into a project in a few
 * set-based statements. Vote and comment counts are synthetic: the list sorts need their spread,
 * not the vote rows behind them. Timestamps collide in pairs so that the "ties by newest" order
 * and the id tie-breaker are exercised.
 */
export async function seedItems(orm: MikroORM, projectId: string, count: number): Promise<void> {
  const em = orm.em.fork();
  await em.execute(
    `insert into end_users (project_id, external_id, name, avatar_url)
     select ?, 'bench-user-' || g, 'User ' || g, 'https://example.com/avatars/' || g || '.png'
     from generate_series(1, 5000) g`,
    [projectId],
  );
  await em.execute(
    `insert into feedback (project_id, end_user_id, title, description, type, status, created_at)
     select ?,
            case when g % 3 = 0 then null else (select id from end_users where project_id = ? and external_id = 'bench-user-' || (1 + g % 5000)) end,
            (array[${TOPICS.map(quote).join(', ')}])[1 + g % ${TOPICS.length}] || ' #' || g,
            case when g % 5 = 0 then null else
              (array[${WORDS.map(quote).join(', ')}])[1 + g % ${WORDS.length}] || ' ' || md5(g::text) || ' ' ||
              (array[${WORDS.map(quote).join(', ')}])[1 + (g / 7) % ${WORDS.length}] end,
            (array['bug', 'idea', 'question', 'other'])[1 + g % 4],
            (array['new', 'under-review', 'planned', 'in-progress', 'completed', 'closed'])[1 + (g / 3) % 6],
            now() - make_interval(secs => (g / 2) * 1.5)
     from generate_series(1, ?) g`,
    [projectId, projectId, count],
  );
  await em.execute(
    `insert into feedback_counters (feedback_id, project_id, created_at, vote_count, comment_count)
     select id, project_id, created_at, floor(power(random(), 3) * 500)::int, floor(power(random(), 2) * 40)::int
     from feedback where project_id = ?`,
    [projectId],
  );
  // What autovacuum (at the 1% scale factor the migration sets) does soon after a burst of writes:
  // fresh statistics, and a visibility map that lets counts scan the index alone.
  await em.execute('vacuum analyze feedback, feedback_counters, end_users');
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
