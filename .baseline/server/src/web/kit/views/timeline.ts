import { html, isolated, type SafeHtml } from '../html.js';
import { ENGLISH, type I18n } from '../i18n.js';
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
export function statusTimeline(item: { createdAt: string; status: string }, steps: readonly StatusStep[], when: (iso: string) => SafeHtml, named = false, i18n: I18n = ENGLISH): SafeHtml {
  const { t } = i18n;
  // Posted as the first change's "from"; with no change, as it is now (an imported or seeded item may start at any status).
  const posted = label(steps[0]?.from ?? item.status, i18n);
  const sentence = (step: StatusStep): SafeHtml => {
    const moved = { from: label(step.from, i18n), to: label(step.to, i18n) };
    if (named && step.actor) return t('timeline.movedBy', { ...moved, actor: isolated(step.actor) });
    if (named && step.keyId) return t('timeline.movedWithKey', moved);
    return t('timeline.moved', moved);
  };
  return html`<section aria-labelledby="history-title">
<h2 id="history-title">${t('timeline.title')}</h2>
<ol class="timeline">
<li><span class="timeline-what">${t('timeline.posted', { status: posted })}</span> <span class="hint">${when(item.createdAt)}</span></li>
${steps.map((step) => html`<li><span class="timeline-what">${sentence(step)}</span> <span class="hint">${when(step.changedAt)}</span></li>`)}
</ol>
${steps.length === 0 && html`<p class="hint">${t('timeline.unchanged')}</p>`}
</section>`;
}
