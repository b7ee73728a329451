import { DESCRIPTION_MAX_LENGTH, ERROR_MESSAGES, FEEDBACK_STATUSES, FEEDBACK_TYPES, PAGE_SIZE_MAX, SORT_ORDERS, TITLE_MAX_LENGTH } from '@feedbackd/sdk/contract';
import type { MessageKey } from '../../i18n/index.js';
import type { I18n } from './i18n.js';

/*
 * The contract's validation messages, as a page says them. The API answers programs with the
 * contract's exact words (the spec's texts, which clients compare), and the board's forms are
 * checked by the same schemas (kit/forms.ts, kit/lists.ts), so a refused form holds those words.
 * A page shows each through the catalogue instead: the words are looked up here and said in the
 * page's language; in English the catalogue's text is the API's own. A message not listed here (one
 * added to the contract later) is shown as the API wrote it.
 */

type Said = readonly [key: MessageKey, values?: Readonly<Record<string, string | number>>];

/** The fields of the board's forms (the submit form's and the list query's), named in the limits' messages (http/body.ts). */
const FIELDS = ['title', 'description', 'type', 'status', 'search', 'sortBy', 'page', 'limit'] as const;

/** Every message of the contract the board's forms can produce, by its exact text. */
export const CONTRACT_MESSAGES: ReadonlyMap<string, Said> = new Map<string, Said>([
  ['Title is required', ['contract.titleRequired']],
  [ERROR_MESSAGES.postingBlocked, ['contract.postingBlocked']],
  ['Title must be a string', ['contract.titleNotText']],
  [`Title must be at most ${TITLE_MAX_LENGTH} characters`, ['contract.titleTooLong', { max: TITLE_MAX_LENGTH }]],
  ['Description must be a string', ['contract.descriptionNotText']],
  [`Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`, ['contract.descriptionTooLong', { max: DESCRIPTION_MAX_LENGTH }]],
  [`Type must be one of: ${FEEDBACK_TYPES.join(', ')}`, ['contract.typeChoice', { choices: FEEDBACK_TYPES.join(', ') }]],
  [`Status must be one of: ${FEEDBACK_STATUSES.join(', ')}`, ['contract.statusChoice', { choices: FEEDBACK_STATUSES.join(', ') }]],
  [`sortBy must be one of: ${SORT_ORDERS.join(', ')}`, ['contract.sortChoice', { choices: SORT_ORDERS.join(', ') }]],
  ['status must be a string', ['contract.statusNotText']],
  ['type must be a string', ['contract.typeNotText']],
  ['status has an empty entry: separate values with one comma, and none at either end', ['contract.statusEmptyEntry']],
  ['type has an empty entry: separate values with one comma, and none at either end', ['contract.typeEmptyEntry']],
  ['search must be a single string', ['contract.searchNotText']],
  ['search must be at most 200 characters', ['contract.searchTooLong', { max: 200 }]],
  ['page must be an integer between 1 and 10000000', ['contract.pageNumber', { min: 1, max: 10_000_000 }]],
  [`limit must be an integer between 1 and ${PAGE_SIZE_MAX}`, ['contract.limitNumber', { min: 1, max: PAGE_SIZE_MAX }]],
  // The input limits (http/body.ts), named by the field: the field's name stays as the API writes it.
  ...FIELDS.flatMap((field): [string, Said][] => [
    [`${field} must not contain NUL characters`, ['contract.nul', { field }]],
    [`${field} must be valid Unicode (it contains a lone surrogate)`, ['contract.surrogate', { field }]],
  ]),
]);

/** A message of the contract in the page's language; any other message as it is. */
export function contractMessage(message: string, i18n: I18n): string {
  const said = CONTRACT_MESSAGES.get(message);
  return said ? i18n.text(said[0], said[1]) : message;
}
