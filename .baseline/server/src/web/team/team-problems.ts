import { PAGE_SIZE_MAX } from '@feedbackd/sdk/contract';
import type { MessageKey } from '../../i18n/index.js';
import { contractMessage } from '../kit/contract-messages.js';
import { ENGLISH, type I18n } from '../kit/i18n.js';
import type { Problem } from '../kit/views/parts.js';

/*
 * The team's own form messages (not the contract's): the checks of its forms (zod's `error`,
 * formInput's `say`) are made once, when the module loads, before any request has a language, so
 * they are written in English, from the catalogue. A refused form's problems are then put into
 * the page's language by finding each English text's message here; the contract's own (the API's
 * schemas, which the forms share) go through kit/contract-messages.ts, and any other is left as it is.
 */

/** A team form message, with the values it is written with (the same on every request). */
const MESSAGES: readonly [key: MessageKey, values?: Record<string, number>][] = [
  ['team.problem.selectItems'],
  ['team.problem.tooMany', { count: PAGE_SIZE_MAX }],
  ['team.problem.status'],
  ['team.problem.undoGone'],
  ['team.problem.mergeInto'],
  ['team.problem.mergeOther'],
  ['team.problem.replyGone'],
  ['team.problem.enterKey'],
  ['team.problem.publicKey'],
  ['team.problem.wrongKey'],
  ['team.held.selectRequired'],
];

/** A team form message in English, as the checks write it. */
export function teamProblem(key: MessageKey, values?: Record<string, number>): string {
  return ENGLISH.text(key, values);
}

const byText = new Map(MESSAGES.map(([key, values]) => [teamProblem(key, values), { key, values }]));

/** The problems in the page's language: the team's messages and the contract's translated, any other kept. */
export function problemsIn(i18n: I18n, problems: readonly Problem[]): Problem[] {
  return problems.map((problem) => {
    const found = byText.get(problem.message);
    return { ...problem, message: found ? i18n.text(found.key, found.values) : contractMessage(problem.message, i18n) };
  });
}
