import { FEEDBACK_STATUSES, FEEDBACK_TYPES, type FeedbackStatus, type FeedbackType } from '@feedbackd/sdk/contract';
import { hash32, Random } from './random.js';
import { capitalise, fill, nearDuplicateAt, seedTitle } from './seed-titles.js';
import { OBJECTS, PARTS, TOOLS } from './title-words.js';
import { BROWSERS, FIRST_NAMES, LAST_NAMES, OPENERS, PLANS, SEED_MARKERS, SENTENCES, SOURCES } from './vocabulary.js';

/** The end of the seeded time line: every seeded timestamp is before it, whenever the seed runs. */
export const SEED_EPOCH_MS = Date.UTC(2026, 10, 1);
const DAY_MS = 86_400_000;
/** Items are created over the year before SEED_EPOCH_MS; their users in the three months before that. */
const ITEM_SPAN_MS = 365 * DAY_MS;
const USER_SPAN_MS = 90 * DAY_MS;
/** The largest vote and comment counts one item may get (votes and comments are numbered per item below 2^16). */
const MAX_VOTES = 50_000;
const MAX_COMMENTS = 500;

/** What every item of one seed shares: its seed and the sizes of its voter pools. */
export interface SeedPlan {
  seed: number;
  /** Identified end users: user n has external id `seed-<seed>-user-<n+1>`. */
  users: number;
  /** Distinct anonymous voters (each an `ip:` voter key). */
  anonymousVoters: number;
  /** Whether the marker words of SEED_MARKERS go into the descriptions (`--search-markers`). */
  searchMarkers: boolean;
}

/** The number of end users (and of anonymous voters) for a seed of `count` items. */
export function voterPoolSize(count: number): number {
  return Math.min(50_000, Math.max(20, Math.ceil(count / 4)));
}

/** One seeded item and how its votes and comments are to be generated (in SQL, see seed-sql.ts). */
export interface SeedItem {
  index: number;
  /** The submitter (a user index), or null for an anonymous submission. */
  submitter: number | null;
  title: string;
  description: string | null;
  type: FeedbackType;
  status: FeedbackStatus;
  metadata: string | null;
  createdMs: number;
  /** Votes by end users: users userStart, userStart + 1, … (mod the pool), the first being the submitter if any. */
  identifiedVotes: number;
  /** Votes by anonymous voters: anonymousStart, anonymousStart + 1, … (mod the pool). */
  anonymousVotes: number;
  /** The submission is the first vote: anonymous ones first for an anonymous submission. */
  anonymousFirst: boolean;
  userStart: number;
  anonymousStart: number;
  comments: number;
}

const TYPE_WEIGHTS: readonly (readonly [FeedbackType, number])[] = [['idea', 45], ['bug', 30], ['question', 15], ['other', 10]];
const STATUS_WEIGHTS: readonly (readonly [FeedbackStatus, number])[] = [
  ['new', 35], ['under-review', 15], ['planned', 12], ['in-progress', 8], ['completed', 18], ['closed', 12],
];
/** Items the team has taken up draw more votes, as popular requests do. */
const VOTE_BOOST: Partial<Record<FeedbackStatus, number>> = { planned: 2, 'in-progress': 2, completed: 1.5 };

/**
 * Item `index` of a seed. It depends only on the seed, the index and the pool sizes, never on
 * the items before it, so any batch of items can be generated (or skipped) on its own.
 */
export function seedItem(plan: SeedPlan, index: number): SeedItem {
  const random = new Random(hash32(`${plan.seed}:item:${index}`));
  // The first 24 items fill every (status, type) cell, so each filter of a list has matches.
  const type = index < 24 ? FEEDBACK_TYPES[Math.floor(index / 6)]! : random.weighted(TYPE_WEIGHTS);
  const status = index < 24 ? FEEDBACK_STATUSES[index % 6]! : random.weighted(STATUS_WEIGHTS);
  // More items recently than a year ago: a product that grows.
  const createdMs = SEED_EPOCH_MS - 1 - Math.floor(ITEM_SPAN_MS * random.next() ** 1.4);
  // A few users write much more than the rest (low indexes are the busy ones).
  const submitter = random.chance(0.7) ? Math.floor(plan.users * random.next() ** 2) : null;
  const text = itemText(plan, type, index);

  const votes = Math.min(MAX_VOTES, 1 + Math.floor(random.heavyTail(4.5, 1.5) * (VOTE_BOOST[status] ?? 1)));
  const anonymousShare = submitter === null ? 0.6 : 0.25;
  let anonymousVotes = Math.round(votes * anonymousShare * (0.5 + random.next()));
  if (submitter === null) anonymousVotes = Math.max(1, anonymousVotes);
  anonymousVotes = Math.min(anonymousVotes, plan.anonymousVoters, submitter === null ? votes : votes - 1);
  const identifiedVotes = Math.min(votes - anonymousVotes, plan.users);

  return {
    index,
    submitter,
    title: text.title,
    description: text.description,
    type: text.type,
    status,
    metadata: random.chance(0.35) ? itemMetadata(random) : null,
    createdMs,
    identifiedVotes,
    anonymousVotes,
    anonymousFirst: submitter === null,
    userStart: submitter ?? random.int(plan.users),
    anonymousStart: random.int(plan.anonymousVoters),
    comments: Math.min(MAX_COMMENTS, random.heavyTail(2, 2.2) + (status === 'completed' || status === 'closed' ? 1 : 0)),
  };
}

function itemText(plan: SeedPlan, seededType: FeedbackType, index: number): { type: FeedbackType; title: string; description: string | null } {
  // A generator of its own, so that the wording can change without changing the items' counts.
  const random = new Random(hash32(`${plan.seed}:text:${index}`));
  const nearDuplicate = nearDuplicateAt(index);
  const type = nearDuplicate?.type ?? seededType;
  const { title, words } = nearDuplicate ? { title: nearDuplicate.title, words: {} } : seedTitle(plan.seed, type, index);
  // The description speaks of the title's object, part or tool; of random ones where it has none.
  const sentenceWords = { object: random.pick(OBJECTS), part: random.pick(PARTS), tool: random.pick(TOOLS), ...words, n: String(2 + random.int(48)) };
  let description: string | null = null;
  if (random.chance(0.88)) {
    const sentences = [random.pick(OPENERS[type]), ...random.sample(SENTENCES, random.int(4))];
    description = sentences.map((sentence) => capitalise(fill(sentence, sentenceWords))).join(' ');
  }
  // Markers only on request (benchmarks), and only in descriptions: a title never carries one.
  const markers = plan.searchMarkers ? SEED_MARKERS.filter((marker) => index % marker.every === 0).map((marker) => marker.word) : [];
  if (markers.length > 0) description = `${description === null ? '' : `${description} `}Reported through the ${markers.join(' and ')} beta.`;
  return { type, title, description };
}

function itemMetadata(random: Random): string {
  const metadata: Record<string, string> = { source: random.pick(SOURCES) };
  if (metadata.source === 'web') metadata.browser = random.pick(BROWSERS);
  metadata.appVersion = `3.${random.int(12)}.${random.int(10)}`;
  return JSON.stringify(metadata);
}

/** One seeded end user. */
export interface SeedUser {
  index: number;
  externalId: string;
  name: string | null;
  email: string | null;
  avatarUrl: string | null;
  metadata: string | null;
  createdMs: number;
}

export function seedUser(seed: number, index: number): SeedUser {
  const random = new Random(hash32(`${seed}:user:${index}`));
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const number = index + 1;
  return {
    index,
    externalId: `seed-${seed}-user-${number}`,
    name: random.chance(0.85) ? `${first} ${last}` : null,
    email: random.chance(0.7) ? `${ascii(first)}.${ascii(last)}${number}@example.com` : null,
    avatarUrl: random.chance(0.5) ? `https://avatars.example.com/u/${number}.png` : null,
    metadata: random.chance(0.3) ? JSON.stringify({ plan: random.pick(PLANS) }) : null,
    createdMs: SEED_EPOCH_MS - ITEM_SPAN_MS - 1 - random.int(USER_SPAN_MS),
  };
}

/** A name as it can appear in an email address. */
function ascii(text: string): string {
  return text.normalize('NFD').replace(/[^A-Za-z]/g, '').toLowerCase();
}
