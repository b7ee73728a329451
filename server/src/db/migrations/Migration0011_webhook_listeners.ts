import { Migration } from '@mikro-orm/migrations';

/**
 * Pull endpoints for `feedback webhooks listen` (docs/webhooks.md, "Receiving on your own
 * machine"): a developer's machine may be behind NAT, so the server never connects to it; its CLI
 * pulls the deliveries instead. A pull endpoint gets deliveries like any other (the fan-out
 * trigger is unchanged), but the sender leaves them alone; `last_pulled_at` lets the hourly
 * pruning delete a listener that went away without saying so.
 */
export class Migration0011WebhookListeners extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" add column "mode" text not null default 'push', add column "last_pulled_at" timestamptz(3) null;`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_mode_check" check ("mode" in ('push', 'pull'));`);
  }

  override async down(): Promise<void> {
    // A pull endpoint would become a push endpoint to the developer's own address: they go, with their deliveries.
    this.addSql(`delete from "webhook_endpoints" where "mode" = 'pull';`);
    this.addSql(`alter table "webhook_endpoints" drop constraint "webhook_endpoints_mode_check";`);
    this.addSql(`alter table "webhook_endpoints" drop column "last_pulled_at", drop column "mode";`);
  }
}
