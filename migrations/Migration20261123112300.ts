import { Migration } from '@mikro-orm/migrations';

/**
 * "One default" becomes a deferrable exclusion constraint (checked at commit, not per statement),
 * so a use case that moves the default writes both rows in one unit of work, in any order, without
 * flushing early; a concurrent twin still fails at its commit. Both now lead with account_id.
 */
export class Migration20261123112300 extends Migration {

  override name = 'Migration20261123112300';

  override up(): void | Promise<void> {
    this.addSql(`drop index "templates_one_default_per_kind";`);
    this.addSql(`alter table "templates" add constraint "templates_one_default_per_kind" exclude using gist ("account_id" with =, "kind" with =) where (is_default) deferrable initially deferred;`);
    this.addSql(`drop index "payment_methods_one_default_per_customer";`);
    this.addSql(`alter table "payment_methods" add constraint "payment_methods_one_default_per_customer" exclude using gist ("account_id" with =, "customer_id" with =) where (is_default) deferrable initially deferred;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payment_methods" drop constraint "payment_methods_one_default_per_customer";`);
    this.addSql(`create unique index "payment_methods_one_default_per_customer" on "payment_methods" ("customer_id") where is_default;`);
    this.addSql(`alter table "templates" drop constraint "templates_one_default_per_kind";`);
    this.addSql(`create unique index "templates_one_default_per_kind" on "templates" ("account_id", "kind") where is_default;`);
  }

}
