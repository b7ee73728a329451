import type { FeedbackType } from '@feedbackd/sdk/contract';
import { hash32 } from './random.js';
import {
  IDEA_ACTIONS, OBJECTS, OPINIONS, PARTS, PLATFORMS, QUALIFIERS, QUESTIONS, SINCE_ALONE, SINCE_ON_PLATFORMS, SITUATIONS_ALONE, SITUATIONS_ON_PLATFORMS, SYMPTOMS, TOOLS,
} from './title-words.js';

/**
 * Seeded titles: a different one for every item, whatever the count (up to DISTINCT_TITLES).
 *
 * A shape is a template and the word lists of its slots; its titles are every combination of
 * them. A type's titles are its tiers, each a union of shapes: the item indexes 0 … size - 1 of
 * the first tier, then the next tier's, and so on, so a small seed gets the short titles of the
 * first tier only and a large one the longer titles after them. Within a tier an index goes to a
 * title by a bijection (an affine map modulo the tier's size, offset by the seed), so no two
 * indexes of a type share a title; the types' templates differ, so no two types do. The first
 * slot of a shape varies fastest, so items close in index are about different things. Integration
 * titles ("Sync … with …") draw from a few tools only, so they stay a fifth to a third of the ideas
 * and questions, as on a real board.
 */
interface Shape {
  text: string;
  /** The slots in the order of their digits, the fastest first. A slot's value may hold other slots. */
  slots: Readonly<Record<string, readonly string[]>>;
}

const SHAPES: Record<FeedbackType, readonly (readonly Shape[])[]> = {
  idea: [
    [{ text: '{action}', slots: { object: OBJECTS, action: IDEA_ACTIONS } }, { text: 'Sync {object} with {tool}', slots: { object: OBJECTS, tool: TOOLS.slice(0, 8) } }],
    [
      { text: '{action} {qualifier}', slots: { object: OBJECTS, action: IDEA_ACTIONS, qualifier: QUALIFIERS } },
      { text: 'Sync {object} with {tool} {qualifier}', slots: { object: OBJECTS, tool: TOOLS.slice(0, 16), qualifier: QUALIFIERS } },
    ],
  ],
  bug: [
    [{ text: '{part} {symptom}', slots: { part: PARTS, symptom: SYMPTOMS } }],
    [{ text: '{part} {symptom} {situation}', slots: { part: PARTS, symptom: SYMPTOMS, situation: SITUATIONS_ALONE } }],
    [{ text: '{part} {symptom} {situation} on {platform}', slots: { part: PARTS, symptom: SYMPTOMS, situation: SITUATIONS_ON_PLATFORMS, platform: PLATFORMS } }],
  ],
  question: [
    [{ text: '{question}?', slots: { object: OBJECTS, question: QUESTIONS } }, { text: 'Does the {tool} integration cover {object}?', slots: { object: OBJECTS, tool: TOOLS.slice(0, 6) } }],
    [
      { text: '{question} {qualifier}?', slots: { object: OBJECTS, question: QUESTIONS, qualifier: QUALIFIERS } },
      { text: 'Does the {tool} integration cover {object} {qualifier}?', slots: { object: OBJECTS, tool: TOOLS.slice(0, 16), qualifier: QUALIFIERS } },
    ],
  ],
  other: [
    [{ text: '{opinion}', slots: { part: PARTS, opinion: OPINIONS } }],
    [{ text: '{opinion} {since}', slots: { part: PARTS, opinion: OPINIONS, since: SINCE_ALONE } }],
    [{ text: '{opinion} {since} on {platform}', slots: { part: PARTS, opinion: OPINIONS, since: SINCE_ON_PLATFORMS, platform: PLATFORMS } }],
  ],
};

/** A multiplier prime to every tier's size (a prime larger than all of them), so the affine map is a bijection. */
const MULTIPLIER = 1_000_003;

interface Tier {
  shapes: { shape: Shape; size: number }[];
  size: number;
  /** Where its indexes start among the type's. */
  start: number;
}

const shapeSize = (shape: Shape) => Object.values(shape.slots).reduce((n, values) => n * values.length, 1);

const TIERS = Object.fromEntries(
  Object.entries(SHAPES).map(([type, tiers]) => {
    let start = 0;
    const built = tiers.map((shapes): Tier => {
      const sized = shapes.map((shape) => ({ shape, size: shapeSize(shape) }));
      const tier = { shapes: sized, size: sized.reduce((n, s) => n + s.size, 0), start };
      if (tier.size >= MULTIPLIER) throw new Error('a tier of seeded titles is larger than its multiplier');
      start += tier.size;
      return tier;
    });
    return [type, built];
  }),
) as Record<FeedbackType, Tier[]>;

/** How many different titles each type has: items of a type past this many indexes repeat earlier titles. */
const CAPACITY = Object.fromEntries(Object.entries(TIERS).map(([type, tiers]) => [type, tiers.reduce((n, tier) => n + tier.size, 0)])) as Record<FeedbackType, number>;

/** Seeds of fewer items than this get a different title for every item (except the near-duplicates below). */
export const DISTINCT_TITLES = Math.min(...Object.values(CAPACITY));

/** A seeded title, and the words its slots took (a description may mention them). */
export interface SeedTitle {
  title: string;
  words: Record<string, string>;
}

/** The title of item `index` of a seed, if it is of type `type`. */
export function seedTitle(seed: number, type: FeedbackType, index: number): SeedTitle {
  const tiers = TIERS[type];
  const k = index % CAPACITY[type];
  const tierIndex = tiers.findIndex((tier) => k < tier.start + tier.size);
  const tier = tiers[tierIndex]!;
  // (a × local + b) mod size, in numbers below 2^53: both factors are below the size.
  let position = ((MULTIPLIER % tier.size) * (k - tier.start) + (hash32(`${seed}:title:${type}:${tierIndex}`) % tier.size)) % tier.size;
  let shape = tier.shapes[0]!;
  for (const candidate of tier.shapes) {
    shape = candidate;
    if (position < candidate.size) break;
    position -= candidate.size;
  }
  const words: Record<string, string> = {};
  for (const [slot, values] of Object.entries(shape.shape.slots)) {
    words[slot] = values[position % values.length]!;
    position = Math.floor(position / values.length);
  }
  return { title: capitalise(fill(shape.shape.text, words)), words };
}

/** Fills `{slot}` placeholders, also those inside a filled value. */
export function fill(text: string, words: Readonly<Record<string, string>>): string {
  let filled = text;
  for (let pass = 0; pass < 3 && filled.includes('{'); pass++) filled = filled.replace(/\{(\w+)\}/g, (whole, slot: string) => words[slot] ?? whole);
  return filled;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The only titles of a seed that say the same thing as another: items placed on purpose so that
 * the similar-items hint (the board's submit form, GET /api/v1/feedback/similar) has something
 * to show. Each group is a few wordings of one request, at fixed indexes past the first 24 (which
 * fill every status and type), so every seed of 100 items or more holds them all. The items keep
 * their seeded status and votes; their type is the group's.
 */
export const NEAR_DUPLICATES: readonly { type: FeedbackType; titles: readonly { index: number; title: string }[] }[] = [
  {
    type: 'idea',
    titles: [
      { index: 27, title: 'Dark mode' },
      { index: 51, title: 'Please add a dark theme' },
      { index: 88, title: 'Dark mode for the mobile app' },
    ],
  },
  {
    type: 'bug',
    titles: [
      { index: 33, title: 'App crashes on startup since the last update' },
      { index: 70, title: 'Crash on startup after updating the app' },
    ],
  },
  {
    type: 'idea',
    titles: [
      { index: 38, title: 'Export the whole workspace to Excel' },
      { index: 77, title: 'Excel export of all workspace data' },
    ],
  },
  {
    type: 'question',
    titles: [
      { index: 44, title: 'How do I cancel my subscription?' },
      { index: 92, title: 'Where can I cancel my subscription?' },
    ],
  },
  {
    type: 'idea',
    titles: [
      { index: 58, title: 'Two-factor authentication' },
      { index: 63, title: 'Two-factor authentication with an authenticator app' },
    ],
  },
];

const NEAR_DUPLICATE_AT = new Map(NEAR_DUPLICATES.flatMap((group) => group.titles.map(({ index, title }) => [index, { type: group.type, title }] as const)));

/** The deliberate near-duplicate at item `index`, if there is one. */
export function nearDuplicateAt(index: number): { type: FeedbackType; title: string } | undefined {
  return NEAR_DUPLICATE_AT.get(index);
}
