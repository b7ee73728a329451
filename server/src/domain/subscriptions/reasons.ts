/**
 * Why an end user is subscribed to an item (the `subscriptions.reasons` bits, migration 0021).
 * The hot statements of a submission, a vote and a comment (domain/feedback/, votes/, comments/)
 * write them inside their own statements, and the subscription statements read them.
 */
export const SUBSCRIPTION_REASONS = { submitted: 1, voted: 2, commented: 4, chose: 8 } as const;

export type SubscriptionReason = keyof typeof SUBSCRIPTION_REASONS;

/**
 * A CTE body that subscribes the end users of `from` (rows with `item`, `endUser` and `project`
 * expressions; rows whose end user is null are skipped) with `reasons` OR-ed into any existing row.
 * An explicit unsubscribe is left as it is: taking part again does not undo it. A row that has the
 * bit already is not rewritten, so a second comment costs an index probe, not a row version.
 */
export function subscribeRows(from: string, columns: { item: string; endUser: string; project: string }, reasons: readonly SubscriptionReason[]): string {
  const bit = reasonBits(reasons);
  return `insert into subscriptions (feedback_id, end_user_id, project_id, reasons)
    select ${columns.item}, ${columns.endUser}, ${columns.project}, ${bit} from ${from} where ${columns.endUser} is not null
    on conflict (feedback_id, end_user_id) do update set reasons = subscriptions.reasons | ${bit}
    where subscriptions.reasons & ${bit} <> ${bit}`;
}

/** The bits of `reasons`, OR-ed. */
export function reasonBits(reasons: readonly SubscriptionReason[]): number {
  return reasons.reduce((bits, reason) => bits | SUBSCRIPTION_REASONS[reason], 0);
}

/** The names of the bits set in `bits`, in their order. */
export function reasonNames(bits: number): SubscriptionReason[] {
  return (Object.keys(SUBSCRIPTION_REASONS) as SubscriptionReason[]).filter((reason) => (bits & SUBSCRIPTION_REASONS[reason]) !== 0);
}

/**
 * Whether subscription row `s` of end user `e` is in force, that is whether the person is told:
 * a reason is left, no unsubscribe from the item, and no unsubscribe from the whole project unless
 * they chose this item afterwards (subscribing clears nothing else; leaving the project clears
 * every earlier choice, domain/subscriptions/subscriptions.sql.ts). The one definition, for every reader.
 */
export function subscriptionInForce(s: string, e: string): string {
  return `(${s}.reasons <> 0 and ${s}.unsubscribed_at is null and (${e}.unsubscribed_at is null or ${s}.reasons & ${SUBSCRIPTION_REASONS.chose} <> 0))`;
}

/** Whether the end user of project `f.project_id` whose externalId is `externalId` is told about item `f`. */
export function userIsSubscribed(externalId: string): string {
  return `exists (
      select 1 from end_users e join subscriptions s on s.end_user_id = e.id and s.feedback_id = f.id
      where e.project_id = f.project_id and e.external_id = ${externalId} and ${subscriptionInForce('s', 'e')}
    )`;
}
