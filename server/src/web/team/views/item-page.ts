import { COMMENT_MAX_LENGTH, FEEDBACK_STATUSES, type FeedbackDetail, type StatusChange } from '@feedbackd/sdk/contract';
import type { TeamAssetPaths } from '../team-assets.js';
import { html, isolated, isolatedPlain, type HtmlValue, type SafeHtml } from '../../kit/html.js';
import { ENGLISH, type I18n } from '../../kit/i18n.js';
import { boardPaths } from '../../../board-paths.js';
import { dateTime } from '../../kit/views/list-parts.js';
import { teamConversation } from './comment-parts.js';
import { person } from '../../kit/views/people.js';
import { statusTimeline } from '../../kit/views/timeline.js';
import { field } from '../../kit/views/fields.js';
import { errorSummary, itemMeta, label, options, type Problem } from '../../kit/views/parts.js';
import { teamPage, teamPaths } from '../layout.js';
import { when } from './when.js';
import type { TeamProject } from '../session.js';
import { deleteSection, mergeSection, type MergeCandidates } from './remove-parts.js';
import { submitterSection, votersSection, type ItemPeople } from './people-parts.js';

/** What the member typed, to fill a refused form again. */
export interface ItemFormValues {
  status?: string | undefined;
  comment?: string | undefined;
  reply?: string | undefined;
  /** The comment a refused reply answered (a thread's Reply), shown again open there. */
  parentId?: string | undefined;
  /** Whether a refused reply was an internal note. */
  internal?: string | undefined;
}

export interface TeamItemView {
  project: TeamProject;
  assets: TeamAssetPaths;
  /** The item as a secret key reads it (DETAIL_WITH_HISTORY): its comments and its status history. */
  item: FeedbackDetail & { statusHistory?: StatusChange[] | undefined };
  values: ItemFormValues;
  /** The contract's messages, each about a control (`comment`, `reply`) or the page. */
  problems: Problem[];
  notice?: HtmlValue;
  /** The items it may be merged into, and why a merge was refused (shown at the choice). */
  merge: MergeCandidates;
  mergeProblem?: string | undefined;
  /** The submitter and a page of the voters (domain/items/item-people.sql.ts). */
  people: ItemPeople;
  /** How many subscribers a status change tells (docs/notifications.md), said before it is saved. */
  subscribers?: number | undefined;
  /** The page's language (kit/locale-choice.ts, chosenI18n); English when not given. */
  i18n?: I18n | undefined;
}

/**
 * GET /team/items/:id: the item as the team sees it, in two columns from 900 px wide (one on a
 * phone, the side column after the description): the main column holds the title, the
 * description, the status history, the comments and the reply; the side column, at the top
 * beside them, what the team acts with: the status (with an optional comment in the same step),
 * the merge, the submitter's external ID and email, delete, and last (the longest) the voters a
 * page at a time. The
 * history names who made each change (the actor), never the key: no part of a key is shown on a
 * team page.
 */
export function teamItemPage(view: TeamItemView): SafeHtml {
  const { project, item, values, problems } = view;
  const i18n = view.i18n ?? ENGLISH;
  const { t } = i18n;
  const body = html`<p><a href="${teamPaths.inbox}">${t('team.item.back')}</a>${project.boardEnabled ? html` · <a href="${boardPaths.item(project.slug, item.id)}">${t('team.item.onBoard')}</a>` : ''}</p>
${errorSummary(view.mergeProblem ? [...problems, { field: 'intoId', message: view.mergeProblem }] : problems, i18n)}
${view.notice && html`<p class="notice" role="status">${view.notice}</p>`}
<div class="item-layout">
<article class="item-head">
<h1>${isolated(item.title)}</h1>
${itemMeta(item, { i18n })}
<p class="submitter">${person(item.endUser?.name, i18n)} <span class="hint">${t('team.item.votesPosted', { count: item.voteCount, date: when(item.createdAt, i18n) })}</span></p>
${item.description ? html`<p class="description">${isolated(item.description)}</p>` : html`<p class="empty">${t('team.item.noDescription')}</p>`}
</article>
<aside class="item-side" aria-label="${t('team.item.side')}">
<section aria-labelledby="status-title">
<h2 id="status-title">${t('team.item.statusTitle')}</h2>
<form method="post" action="${teamPaths.itemStatus(item.id)}" novalidate>
<div class="field"><label for="status">${t('team.item.status')}</label><select id="status" name="status">${options(FEEDBACK_STATUSES.map((s) => ({ value: s, text: label(s, i18n) })), values.status ?? item.status)}</select></div>
${textField('comment', t('team.item.comment'), t('team.item.commentHint'), values.comment, problems, 3, i18n)}
${view.subscribers !== undefined && html`<p class="hint" id="status-notifies">${t('team.item.notifies', { count: view.subscribers })}</p>`}
<button type="submit" class="button"${view.subscribers !== undefined ? html` aria-describedby="status-notifies"` : ''}>${t('team.item.saveStatus')}</button>
</form>
</section>
${mergeSection(item, view.merge, view.mergeProblem, i18n)}
${submitterSection(view.people, i18n)}
${deleteSection(item, i18n)}
${votersSection(view.people, (n) => `${teamPaths.item(item.id)}?voters=${n}`, i18n)}
</aside>
<div class="item-rest">
${statusTimeline(item, item.statusHistory ?? [], (iso) => dateTime(iso, i18n), true, i18n)}
${teamConversation(item.id, item.comments, (iso) => dateTime(iso, i18n), i18n, values.parentId && values.reply !== undefined ? { parentId: values.parentId, reply: values.reply } : undefined)}
<section aria-labelledby="reply-title">
<h2 id="reply-title">${t('team.item.replyTitle')}</h2>
<form method="post" action="${teamPaths.itemComment(item.id)}" novalidate>
${textField('reply', t('team.item.reply'), undefined, values.parentId ? undefined : values.reply, problems, 4, i18n)}
<div class="field checkbox"><input type="checkbox" id="internal" name="internal" value="on"${values.internal === 'on' && !values.parentId ? html` checked` : ''}> <label for="internal">${t('team.item.internal')}</label></div>
<button type="submit" class="button">${t('team.item.postReply')}</button>
</form>
</section>
</div>
</div>`;
  const title = isolatedPlain(item.title);
  return teamPage({ title: problems.length > 0 || view.mergeProblem ? t('team.item.titleWithErrors', { title }) : title, assets: view.assets, project, body, i18n, here: teamPaths.item(item.id) });
}

/** A labelled textarea for a comment (kit/views/fields.ts), filled with what was typed. */
function textField(name: string, text: HtmlValue, hint: HtmlValue, value: string | undefined, problems: readonly Problem[], rows: number, i18n: I18n): SafeHtml {
  return field(name, text, problems, (describedBy) => html`<textarea id="${name}" name="${name}" rows="${rows}" maxlength="${COMMENT_MAX_LENGTH}"${describedBy}>${value ?? ''}</textarea>`, hint, i18n);
}
