import { html, isolated, type SafeHtml } from '../html.js';
import { label } from './parts.js';

/** One change of an item's status, as the board's statement and the detail with history read it. */
export interface StatusStep {
  from: string;
  to: string;
  changedAt: string;
  /** Who made it (the team's pages only; the board's statement reads no actor). */
  actor?: string | null | undefined;
  /** Whether an API key made it without naming anyone (the team's pages only). */
  keyId?: string | null | undefined;
}

/**
 * An item's status history as a short timeline, oldest first: its posting, then each change.
 * Each line is a whole sentence ("Moved from New to Planned"), not two labels and an arrow: an
 * arrow points the wrong way in a right-to-left language, and a sentence is what a translation
 * needs. `when` writes a time (the board: the date; the team: date and time). `named` adds who
 * made each change (the team's pages); the board names nobody.
 */
export function statusTimeline(item: { createdAt: string; status: string }, steps: readonly StatusStep[], when: (iso: string) => SafeHtml, named = false): SafeHtml {
  // Posted as the first change's "from"; with no change, as it is now (an imported or seeded item may start at any status).
  const posted = label(steps[0]?.from ?? item.status);
  const sentence = (step: StatusStep): SafeHtml => {
    const from = label(step.from);
    const to = label(step.to);
    if (named && step.actor) return html`Moved from ${from} to ${to} by ${isolated(step.actor)}`;
    if (named && step.keyId) return html`Moved from ${from} to ${to} with an API key`;
    return html`Moved from ${from} to ${to}`;
  };
  return html`<section aria-labelledby="history-title">
<h2 id="history-title">Status history</h2>
<ol class="timeline">
<li><span class="timeline-what">Posted as ${posted}</span> <span class="hint">${when(item.createdAt)}</span></li>
${steps.map((step) => html`<li><span class="timeline-what">${sentence(step)}</span> <span class="hint">${when(step.changedAt)}</span></li>`)}
</ol>
${steps.length === 0 && html`<p class="hint">The status has not changed since the item was posted.</p>`}
</section>`;
}
