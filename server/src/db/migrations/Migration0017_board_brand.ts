import { Migration } from '@mikro-orm/migrations';

/**
 * A board that looks like its product (`feedback board brand`, PATCH /api/v1/board; docs/board.md):
 * - `board_description`: one line under the name, and the pages' meta description;
 * - `board_accent`: the light theme's accent colour, `#rrggbb` (the dark theme's is derived from it);
 * - `board_default_sort`: the list's order when the visitor picks none (null: newest, as the API);
 * - `board_logo*`: the logo's bytes (at most 256 KB, checked by their magic bytes), its media type,
 *   the hash that names its URL, and its size for the page's <img>. The bytes are read only by the
 *   logo's own route, never by the pages' project look-up.
 */
export class Migration0017BoardBrand extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "board_description" text null, add column "board_accent" text null, add column "board_default_sort" text null, add column "board_logo" bytea null, add column "board_logo_type" text null, add column "board_logo_hash" text null, add column "board_logo_width" int null, add column "board_logo_height" int null;`);
    this.addSql(`alter table "projects" add constraint "projects_board_default_sort_check" check ("board_default_sort" in ('newest', 'oldest', 'votes', 'comments'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "projects" drop constraint "projects_board_default_sort_check";`);
    this.addSql(`alter table "projects" drop column "board_description", drop column "board_accent", drop column "board_default_sort", drop column "board_logo", drop column "board_logo_type", drop column "board_logo_hash", drop column "board_logo_width", drop column "board_logo_height";`);
  }
}
