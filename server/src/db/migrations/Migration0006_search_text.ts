import { Migration } from '@mikro-orm/migrations';

/**
 * Search (spec 4.3, `search`) reads one lower-cased copy of each item's text instead of two
 * `ilike`s. PostgreSQL's `ilike` on UTF-8 text lower-cases both the row's text and the pattern
 * on every row it rechecks; a trigram index cannot spare that recheck, so on a common word it was
 * most of a search's cost. `search_text` is that lower-cased text, kept by PostgreSQL itself
 * (a stored generated column: every writer, the ORM, imports and seeds included, gets it right),
 * and `like lower(pattern)` on it matches exactly the rows the two `ilike`s matched: `ilike`
 * lower-cases whole strings the same way. Title and description are joined by U+001F (the unit
 * separator), so a match cannot span the two; a search containing that character must also match
 * one column with `ilike` (server/src/public/feedback.sql.ts).
 *
 * One trigram index on `search_text` replaces the two on `title` and `description`: a new item
 * adds its trigrams to one index, not two.
 */
export class Migration0006SearchText extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "feedback" add column "search_text" text generated always as (lower("title" || E'\\x1f' || coalesce("description", ''))) stored;`);
    this.addSql(`create index "feedback_search_text_trgm_index" on "feedback" using gin ("search_text" gin_trgm_ops);`);
    this.addSql(`drop index "feedback_title_trgm_index";`);
    this.addSql(`drop index "feedback_description_trgm_index";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "feedback_title_trgm_index" on "feedback" using gin ("title" gin_trgm_ops);`);
    this.addSql(`create index "feedback_description_trgm_index" on "feedback" using gin ("description" gin_trgm_ops);`);
    this.addSql(`alter table "feedback" drop column "search_text";`);
  }
}
