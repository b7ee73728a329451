import type { TestServer } from './test-server.js';

/*
 * Subscriptions as rows (issue 40): the tests of notifications make their subscribers themselves,
 * so they depend only on the table (Migration0021_subscriptions), not on which write
 * subscribes whom.
 */

/** An end user to subscribe: the externalId, and optionally their email and name. */
export interface Subscriber {
  externalId: string;
  email?: string | null;
  name?: string | null;
}

/** The project of a slug (the default project when absent). */
export async function projectId(server: Pick<TestServer, 'sql'>, slug = 'default'): Promise<string> {
  const [row] = await server.sql<{ id: string }>('select id::text as id from projects where slug = ?', [slug]);
  if (!row) throw new Error(`no project ${slug}`);
  return row.id;
}

/**
 * Subscribes each person to item `feedbackId` (reason 8, "chose to subscribe"), creating or
 * updating their end user. Returns their end-user ids in the order given.
 */
export async function subscribe(server: Pick<TestServer, 'sql'>, feedbackId: string, people: readonly Subscriber[]): Promise<string[]> {
  const ids: string[] = [];
  for (const person of people) {
    const [user] = await server.sql<{ id: string }>(
      `insert into end_users (project_id, external_id, email, name)
       select f.project_id, ?, ?, ? from feedback f where f.id = ?
       on conflict (project_id, external_id) do update set email = excluded.email, name = excluded.name
       returning id::text as id`,
      [person.externalId, person.email ?? null, person.name ?? null, feedbackId],
    );
    await server.sql(
      `insert into subscriptions (feedback_id, end_user_id, project_id, reasons)
       select f.id, ?, f.project_id, 8 from feedback f where f.id = ? on conflict do nothing`,
      [user!.id, feedbackId],
    );
    ids.push(user!.id);
  }
  return ids;
}

/** Subscribes `count` people `prefix-0` ... with addresses `prefix-N@example.com`, in one statement. */
export async function subscribeMany(server: Pick<TestServer, 'sql'>, feedbackId: string, prefix: string, count: number): Promise<void> {
  await server.sql(
    `with users as (
       insert into end_users (project_id, external_id, email, name)
       select f.project_id, ? || '-' || n, ? || '-' || n || '@example.com', null from feedback f, generate_series(0, ? - 1) n where f.id = ?
       returning id, project_id
     )
     insert into subscriptions (feedback_id, end_user_id, project_id, reasons) select ?, id, project_id, 8 from users`,
    [prefix, prefix, count, feedbackId, feedbackId],
  );
}

/** The notifications of an item as rows: who is told, of what, and where their mail stands. */
export async function notificationsOf(server: Pick<TestServer, 'sql'>, feedbackId: string): Promise<{ externalId: string; kind: string; mailState: string }[]> {
  return server.sql(
    `select u.external_id as "externalId", n.kind, n.mail_state as "mailState"
     from notifications n join end_users u on u.id = n.end_user_id where n.feedback_id = ? order by u.external_id, n.id`,
    [feedbackId],
  );
}
