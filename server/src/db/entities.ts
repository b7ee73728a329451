import { IdempotencyKey } from '../modules/idempotency/idempotency-key.entity.js';
import { ApiKey } from '../modules/keys/api-key.entity.js';
import { Comment, Feedback, FeedbackCounters, FeedbackStats } from '../modules/feedback/feedback.entity.js';
import { StatusChange } from '../modules/feedback/status-change.entity.js';
import { Project } from '../modules/projects/project.entity.js';
import { EndUser } from '../modules/users/end-user.entity.js';
import { Vote } from '../modules/votes/vote.entity.js';

/** Every entity of the data model; the ORM is initialised with exactly these. */
export const entities = [Project, ApiKey, EndUser, Feedback, FeedbackCounters, FeedbackStats, Comment, Vote, IdempotencyKey, StatusChange];
