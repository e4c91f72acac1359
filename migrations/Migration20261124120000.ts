import { Migration } from '@mikro-orm/migrations';

/**
 * Allocation keys: a site's dated keys (oldest first; none means priority throughout) and a
 * balancing setting's share under the static key in millionths. Additive: existing sites get no
 * dated key and existing settings no share; the default is dropped again so that the schema equals
 * what the entities declare (the application always writes the column). Changed ranges inside an
 * invoiced period are held under their invoice until it is cancelled.
 */
export class Migration20261124120000 extends Migration {

  override name = 'Migration20261124120000';

  override up(): void | Promise<void> {
    this.addSql(`alter table "sites" add "allocation_keys" jsonb not null default '[]';`);
    this.addSql(`alter table "sites" alter column "allocation_keys" drop default;`);
    this.addSql(`alter table "meter_balancing_settings" add "share_micros" int null;`);
    this.addSql(`alter table "balancing_dirty_ranges" add "held_by_invoice_id" uuid null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "balancing_dirty_ranges" drop column "held_by_invoice_id";`);
    this.addSql(`alter table "meter_balancing_settings" drop column "share_micros";`);
    this.addSql(`alter table "sites" drop column "allocation_keys";`);
  }

}
