import { IdempotencyKey } from '../modules/idempotency/idempotency-key.entity.js';
import { ApiKey } from '../modules/keys/api-key.entity.js';
import { Comment, Feedback, FeedbackCounters, FeedbackStats } from '../modules/feedback/feedback.entity.js';
import { StatusChange } from '../modules/feedback/status-change.entity.js';
import { Project } from '../modules/projects/project.entity.js';
import { EndUser } from '../modules/users/end-user.entity.js';
import { Vote } from '../modules/votes/vote.entity.js';

/**
 * Every entity of the data model; the ORM is initialised with exactly these.
 *
 * Each many-to-one says `updateRule('cascade')` because the migrations made every foreign key
 * `on update cascade` (MikroORM 6's default); MikroORM 7 no longer assumes it, and without the
 * rule its schema diff would see every foreign key of a database made by 0.1.0 as changed.
 */
export const entities = [Project, ApiKey, EndUser, Feedback, FeedbackCounters, FeedbackStats, Comment, Vote, IdempotencyKey, StatusChange];
