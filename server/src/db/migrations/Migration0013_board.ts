import { Migration } from '@mikro-orm/migrations';

/**
 * The public board (docs/board.md): each project says whether its board and roadmap are served
 * at /b/<slug>. Off by default, because a board shows every item of a project to anyone who can
 * reach the server: an operator decides that (`feedback board on|off`).
 *
 * The `default` project is turned on here, and the first start turns on the project it creates
 * (domain/projects/projects.service.ts): that project is the one-command installation's own, whose quick
 * start says "open the server in a browser", and an upgrade should keep showing what a fresh
 * install of the same version shows. Projects an operator created are left off.
 */
export class Migration0013Board extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "projects" add column "board_enabled" boolean not null default false;`);
    this.addSql(`update "projects" set "board_enabled" = true where "slug" = 'default';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "projects" drop column "board_enabled";`);
  }
}
