/** The seeder of `feedback seed` (and of the benchmark): realistic, deterministic data in bulk. */
export { seedProject, type SeedOptions, type SeedProgress, type SeedSummary } from './seed-project.js';
export { SEED_EPOCH_MS, seedItem, voterPoolSize, type SeedItem, type SeedPlan } from './seed-items.js';
export { DISTINCT_TITLES, NEAR_DUPLICATES, seedTitle } from './seed-titles.js';
export { SEED_MARKERS, markerItemCount, type SeedMarker } from './vocabulary.js';
