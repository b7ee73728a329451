import type { Statement } from '../public/feedback.sql.js';

/*
 * The board's own reads, beside the API's statements it reuses (the list, the detail, the vote
 * check): what the API has no question for. Hot side: one parameterised statement each.
 */

/** The project of a board, by slug, only when its board is on. $1 slug. */
export const BOARD_PROJECT: Statement = {
  name: 'board_project',
  text: 'select id::text, slug, name, voter_salt from projects where slug = $1 and board_enabled',
};

/**
 * Which of the items $1 (uuid[]: a page of the list) the voter $2 votes for, so each vote button
 * says so (the API's list does not: its caller is a backend, not one voter).
 */
export const VOTED_AMONG: Statement = {
  name: 'board_voted_among',
  text: 'select feedback_id::text as id from votes where feedback_id = any($1::uuid[]) and voter_key = $2',
};
