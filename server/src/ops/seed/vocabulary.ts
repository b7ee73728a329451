import type { FeedbackType } from '@feedbackd/sdk/contract';

/**
 * The words seeded feedback is made of, besides its titles' (title-words.ts). Descriptions and
 * comments are built from these (see seed-items.ts); the marker words below are in no list here
 * nor there, so their frequency is exactly known.
 */

/**
 * Words that appear in exactly a known share of the seeded items when the seed asks for them
 * (`--search-markers`, `searchMarkers`), in the descriptions only, and nowhere else: a search for
 * one of them matches exactly `markerItemCount(marker, count)` items of a seed of `count`.
 * Benchmarks and tests rely on them; a seed without the flag has none.
 */
export const SEED_MARKERS = [
  { word: 'quokka', every: 10 },
  { word: 'axolotl', every: 100 },
  { word: 'narwhal', every: 1000 },
] as const;

export type SeedMarker = (typeof SEED_MARKERS)[number];

/** Items 0, every, 2 × every, … carry the marker: ⌈count / every⌉ of them. */
export function markerItemCount(marker: SeedMarker, count: number): number {
  return Math.ceil(count / marker.every);
}

/**
 * The first sentence of a description, by type; `{object}`, `{part}` and `{tool}` are the title's
 * words (or random ones), `{n}` a number, so descriptions differ as their titles do.
 */
export const OPENERS: Readonly<Record<FeedbackType, readonly string[]>> = {
  idea: [
    'We manage about {n} {object} and do this by hand today.',
    'Our team of {n} would use this every day.',
    'This came up in {n} customer calls this quarter.',
    'We moved from {tool} last month and this is what we miss most.',
    'It took me {n} minutes to do this for our {object} yesterday.',
    'Today we keep a spreadsheet of our {object} next to the app just for this.',
    'Competitors already offer this, and {n} of our users asked.',
  ],
  bug: [
    'Happens about {n} times a day for us.',
    'Reproduced on {n} machines in our office.',
    'Steps: open the {part}, wait {n} seconds, then try again.',
    '{n} people on our team ran into it this week.',
    'Clearing the cache and logging in again did not help with the {part}.',
    'It started after the last update; before that the {part} worked fine.',
  ],
  question: [
    'We have about {n} {object} and could not find this in the help center.',
    'Asking for a team of {n} that works mostly in the {part}.',
    'The guide about {tool} did not answer this.',
    'A colleague says this used to be possible with {object}.',
  ],
  other: [
    'We have used the app for {n} months now.',
    'Speaking for a team of {n}.',
    'The {part} is the first thing we open every morning.',
    'Just wanted to share this about the {part}.',
  ],
};

/** Further sentences of descriptions, of any type; the words are filled in as in OPENERS. */
export const SENTENCES = [
  'A workaround would be fine for now.',
  'Happy to test a beta version.',
  'We are on the business plan, if that matters.',
  'Not urgent, but it would save us a lot of clicks.',
  'I could not find anything about this in the help center.',
  'This blocks our rollout to the rest of the company.',
  'Right now we copy everything into {tool} by hand.',
  'It would be great if this also worked with {tool}.',
  'Our customers keep asking about it.',
  'Screenshots are in our support ticket.',
  'Thanks for building such a useful product!',
  'Let me know if you need more details.',
  'Most of our work happens in the {part}.',
  'Several people on the team asked me to post this.',
  'It is the one thing missing before we move everyone over.',
] as const;

export const FIRST_NAMES = [
  'Ada', 'Ben', 'Chloé', 'Dmitri', 'Emma', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Lars', 'Maya',
  'Nikolai', 'Olga', 'Pablo', 'Quinn', 'Rosa', 'Sven', 'Tomás', 'Uma', 'Vera', 'Wei', 'Ximena', 'Yusuf', 'Zoe',
  'Amara', 'Bruno', 'Carmen', 'Dev', 'Elif', 'Finn',
] as const;

export const LAST_NAMES = [
  'Andersen', 'Baker', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'García', 'Hughes', 'Ivanova', 'Jensen', 'Kowalski',
  'Lopez', 'Müller', 'Nakamura', 'Okafor', 'Petrov', 'Quinn', 'Rossi', 'Schmidt', 'Tanaka', 'Urban', 'Varga',
  'Wong', 'Yilmaz', 'Zhang', 'Novak', 'Silva', 'Kim',
] as const;

export const PLANS = ['free', 'starter', 'business', 'enterprise'] as const;
export const SOURCES = ['web', 'ios', 'android', 'api', 'email'] as const;
export const BROWSERS = ['Chrome 131', 'Firefox 133', 'Safari 18', 'Edge 131'] as const;

/** What the owning team writes in comments. */
export const TEAM_COMMENTS = [
  'Thanks for the report! We can reproduce it and are working on a fix.',
  'Thanks for the idea. We have added it to our roadmap.',
  'This is now live for everyone. Let us know how it works for you.',
  'Could you tell us which browser and version you use?',
  'We are looking into this and will update this thread.',
  'Good news: a fix is in the next release.',
  'We decided not to build this for now, but we will keep listening.',
  'You can already do this under Settings, then Advanced.',
  'Merged with a similar request, so the votes add up.',
  'Thanks, this helps us prioritise.',
] as const;

/** What end users write in comments. */
export const USER_COMMENTS = [
  '+1, we need this too.',
  'Same problem here since last week.',
  'This would make my day.',
  'Any update on this?',
  'Our whole team is waiting for this.',
  'Works for me now, thanks!',
  'I found a workaround: export first, then reload.',
  'Still happening on the latest version.',
  'Please prioritise this one.',
  'Is there an ETA?',
  'Would love to see this on mobile as well.',
  'Upvoted. This is the main reason we are evaluating alternatives.',
] as const;

/** An optional second sentence of a comment. */
export const COMMENT_TAILS = [
  'Thanks for listening.',
  'Happy to share more details.',
  'Screenshots on request.',
  'We have about 40 people affected.',
  'Keep up the good work.',
  'Cheers.',
] as const;

export const TEAM_NAMES = ['Support Team', 'Alex from Product', 'Sam (Engineering)', 'Priya from Success', 'The Product Team'] as const;
